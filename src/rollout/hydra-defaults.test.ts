import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRolloutConfig } from './config.ts';

let dir: string;
const write = async (path: string, text: string) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
};
const env = 'custom_envs:\n  QA:\n    env_type: qa\n';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ghostwire-defaults-'));
  await write('shared/envs.yaml', 'steps: 4\nlimits: { a: 1, b: 2 }\nlist: [1, 2]\n');
  await write('db/sqlite.yaml', 'path: /tmp/x.db\n');
  await write('self-first.yaml', `defaults:\n  - _self_\n  - shared/envs\n${env}steps: 9\n`);
  await write('self-last.yaml', `defaults:\n  - shared/envs@_here_\n  - db: sqlite\n  - optional cache: none\n${env}steps: 9\nlimits: { b: 3 }\nlist: [7]\nhydra:\n  run: { dir: . }\n`);
  await write('packaged.yaml', `defaults:\n  - shared/envs@pkg.sub\n  - db@storage: sqlite\n${env}`);
  await write('loop-a.yaml', `defaults:\n  - loop-b\n${env}`);
  await write('loop-b.yaml', 'defaults:\n  - loop-a\n');
  await write('missing.yaml', `defaults:\n  - nowhere/config\n${env}`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('Hydra defaults lists', () => {
  it('_self_ implicitly last: the including file wins; dicts merge, lists replace; group entries land under the group; hydra is dropped', async () => {
    const { config } = await loadRolloutConfig(join(dir, 'self-last.yaml'), { env: {} });
    expect(config).toEqual({ steps: 9, limits: { a: 1, b: 3 }, list: [7], db: { path: '/tmp/x.db' }, custom_envs: { QA: { env_type: 'qa', env_config: {} } } });
  });

  it('_self_ first: the included file wins', async () => {
    const { config } = await loadRolloutConfig(join(dir, 'self-first.yaml'), { env: {} });
    expect(config).toMatchObject({ steps: 4 });
  });

  it('@package places a config under a dotted package', async () => {
    const { config } = await loadRolloutConfig(join(dir, 'packaged.yaml'), { env: {} });
    expect(config).toMatchObject({ pkg: { sub: { steps: 4 } }, storage: { path: '/tmp/x.db' } });
  });

  it('a missing config and a cycle are errors naming the entry', async () => {
    await expect(loadRolloutConfig(join(dir, 'missing.yaml'), { env: {} })).rejects.toThrow(/missing\.yaml: defaults\.0: cannot find config 'nowhere\/config'/);
    await expect(loadRolloutConfig(join(dir, 'loop-a.yaml'), { env: {} })).rejects.toThrow(/includes itself/);
  });
});
