/** The host every OpenAI wire API answers on. */
export const OPENAI_HOSTS: readonly string[] = ['api.openai.com'];

/** OpenAI clients send their key as `Authorization: Bearer` (organization and project ids are not secret). */
export const OPENAI_CREDENTIALS = { headers: ['authorization'], query: [] } as const;
