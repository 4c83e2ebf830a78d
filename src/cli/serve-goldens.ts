/**
 * `ghostwire serve --goldens DIR [--record | --record-missing] [--upstream [PROVIDER=]URL]`: the options
 * that put goldens on the real port, checked and turned into the server's front (golden-front.ts).
 */
import { relative } from 'node:path';
import { PortGoldens } from '../goldens/port-goldens.ts';
import { PROVIDER_IDS } from '../providers/index.ts';
import { goldenFront } from '../transports/golden-front.ts';
import type { SessionFront } from '../transports/session-front.ts';
import type { CommandIO } from './serve-until-signal.ts';

export interface GoldensArgs {
  goldens?: string;
  record?: boolean;
  'record-missing'?: boolean;
  'force-record'?: boolean;
  upstream?: string[];
  redact?: string[];
}

export const GOLDENS_USAGE = `Goldens (record and replay the traffic of code outside the test process):
  --goldens         folder of goldens: each session's requests are answered from its golden (replay)
  --record          send every request on to the real provider and write the session's golden
  --record-missing  record the goldens that do not exist yet, replay the others
  --force-record    record even when CI=true (refused otherwise)
  --upstream        record against URL instead of the provider's host: URL (all) or PROVIDER=URL (repeatable)
  --redact          a secret value to keep out of goldens besides auth headers (repeatable)
`;

function truthy(value: string | undefined): boolean {
  return !!value && !['0', 'false', 'no', ''].includes(value.toLowerCase());
}

function validUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The goldens front for the parsed options, null without --goldens, or an error message.
 * @example goldensOptions({ goldens: 'e2e/goldens', 'record-missing': true }, io)
 */
export function goldensOptions(values: GoldensArgs & { scenarios?: string }, io: Pick<CommandIO<unknown>, 'env' | 'err'>): { front: SessionFront; banner: string } | null | string {
  const recordFlags = values.record || values['record-missing'];
  if (!values.goldens) {
    if (recordFlags || values.upstream || values.redact) return '--record, --record-missing, --upstream and --redact need --goldens DIR';
    return null;
  }
  if (values.record && values['record-missing']) return 'give --record or --record-missing, not both';
  if (recordFlags && truthy(io.env.CI) && !values['force-record']) {
    return 'refusing to record with CI=true: CI replays goldens and never calls the real providers. Record locally and commit the goldens, or pass --force-record.';
  }
  let upstream: string | null = null;
  const upstreams: Record<string, string> = {};
  for (const item of values.upstream ?? []) {
    const eq = item.indexOf('=');
    const [provider, url] = eq > 0 && !item.slice(0, eq).includes(':') ? [item.slice(0, eq), item.slice(eq + 1)] : [null, item];
    if (!validUrl(url)) return `--upstream expects URL or PROVIDER=URL with an http(s) URL, got ${JSON.stringify(item)}`;
    if (provider === null) upstream = url;
    else if (!(PROVIDER_IDS as readonly string[]).includes(provider)) return `--upstream ${provider}=…: unknown provider ${JSON.stringify(provider)}; one of ${PROVIDER_IDS.join(', ')}`;
    else upstreams[provider] = url;
  }
  const mode = values.record ? 'record' : values['record-missing'] ? 'record-missing' : 'replay';
  const goldens = new PortGoldens({ dir: values.goldens, mode, upstream, upstreams, redact: values.redact, env: io.env, log: (line) => io.err(`${line}\n`) });
  // Without scenarios, a request naming no golden could only fail; say how to name one instead.
  const unnamed = values.scenarios || io.env.MOCKLLM_SCENARIOS?.trim() ? 'scenarios' : 'refuse';
  const front = goldenFront(goldens, { sessionIdNamesGolden: true, unnamed, log: (line) => io.err(`${line}\n`) });
  const where = upstream ?? (Object.keys(upstreams).length > 0 ? Object.entries(upstreams).map(([p, u]) => `${p}=${u}`).join(', ') + ', others at the providers\' hosts' : 'the providers\' hosts');
  const banner = mode === 'replay' ? `goldens: replaying from ${relative(process.cwd(), values.goldens) || '.'}` : `goldens: ${mode === 'record' ? 'recording every session' : 'recording sessions without a golden'} into ${relative(process.cwd(), values.goldens) || '.'}, forwarding to ${where}`;
  return { front, banner };
}
