// Setup file of the projects whose files share worker processes (`intercepting`, `shared`): a file there may
// start MSW servers and golden interceptors, but must leave none on. Vitest evaluates a setup file before every test
// file, so this captures the platform's request functions as the file found them and, after the file's own
// afterAll hooks (after-hooks run in reverse order), fails the file if any is still patched, so a leak names
// its file instead of breaking whichever file runs next in that worker.
import http from 'node:http';
import https from 'node:https';
import { afterAll, expect } from 'vitest';

const requestFunctions = () => ({
  fetch: globalThis.fetch,
  'http.request': http.request,
  'http.get': http.get,
  'https.request': https.request,
  'https.get': https.get,
});

const found = requestFunctions();
afterAll(() => {
  const left = requestFunctions();
  for (const name of Object.keys(found) as Array<keyof typeof found>) {
    expect(left[name], `${name} is still intercepted after this file: close its MSW server or interceptor in afterAll`).toBe(found[name]);
  }
});
