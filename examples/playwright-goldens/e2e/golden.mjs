// One golden per test, named after the test: every request the page (or the test) sends carries
// `x-ghostwire-golden: <spec file>/<test title>`, and the app passes it on to its LLM calls.
import { test as base } from '@playwright/test';

const slug = (text) => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 100);

export const test = base.extend({
  extraHTTPHeaders: async ({}, use, testInfo) => {
    const [file, ...titles] = testInfo.titlePath;
    await use({ 'x-ghostwire-golden': `${slug(file.replace(/\.spec\.[cm]?[jt]s$/, ''))}/${slug(titles.join(' '))}` });
  },
});
export { expect } from '@playwright/test';
