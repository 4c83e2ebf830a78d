/**
 * Testing structured output. The scenario scripts the object (`respondWithJson`), not an escaped JSON
 * string; the mock renders it the way the request asked (here OpenAI `response_format: json_schema`,
 * so `parse()` returns it) and checks it against the schema the code actually sends: when the code's
 * schema changes, a scripted object that no longer fits fails the test instead of passing silently.
 * `respondWithGeneratedJson` answers with an instance of that schema instead, the same for the same seed.
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { openai, scenario } from 'ghostwire';
import { test, useMockLLM } from 'ghostwire/vitest';

const Invoice = z.object({ vendor: z.string(), total: z.number(), currency: z.enum(['EUR', 'USD']) });

// The code under test: extracts an invoice, or says why it could not.
async function extractInvoice(client: OpenAI, text: string): Promise<z.infer<typeof Invoice> | { refused: string }> {
  const completion = await client.chat.completions.parse({
    model: 'gpt-4o',
    messages: [{ role: 'system', content: 'Extract the invoice.' }, { role: 'user', content: text }],
    response_format: zodResponseFormat(Invoice, 'invoice'),
  });
  const message = completion.choices[0].message;
  return message.parsed ?? { refused: message.refusal ?? 'no answer' };
}

describe('structured output', () => {
  test('parse() returns the scripted object', async () => {
    const mock = useMockLLM(
      scenario('invoice').expect(openai()).withResponseFormat('invoice').then().respondWithJson({ vendor: 'ACME', total: 120.5, currency: 'EUR' }),
    );
    expect(await extractInvoice(new OpenAI({ apiKey: 'sk-test' }), 'ACME, 120.50 EUR')).toEqual({ vendor: 'ACME', total: 120.5, currency: 'EUR' });
    mock.assertAllConsumed();
  });

  test('a generated object fits the schema the code sent', async () => {
    useMockLLM(scenario('invoice').respondWithGeneratedJson({ seed: 1 }));
    const invoice = await extractInvoice(new OpenAI({ apiKey: 'sk-test' }), 'anything');
    expect(Invoice.parse(invoice)).toEqual(invoice);
  });

  test('a refusal reaches the code as OpenAI sends it', async () => {
    useMockLLM(scenario('invoice').respondWithRefusal('I cannot read this document.'));
    expect(await extractInvoice(new OpenAI({ apiKey: 'sk-test' }), 'a photo of a cat')).toEqual({ refused: 'I cannot read this document.' });
  });
});
