import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { describeStructuredConformance, WEATHER_SCHEMA, WEATHER_SCHEMA_NAME } from '../testing/conformance-structured.ts';

const credentials = { accessKeyId: 'AKIDGHOSTTEST', secretAccessKey: 'ghost-secret' };
const converse = (base: string | undefined) =>
  new BedrockRuntimeClient({ region: 'us-east-1', credentials, requestHandler: new NodeHttpHandler(), maxAttempts: 1, ...(base ? { endpoint: base } : {}) });
const outputConfig = { textFormat: { type: 'json_schema' as const, structure: { jsonSchema: { schema: JSON.stringify(WEATHER_SCHEMA), name: WEATHER_SCHEMA_NAME } } } };
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

describeStructuredConformance({
  id: 'bedrock',
  reasoningModel: MODEL,
  // Converse has no refusal of its own (a refusal stops as content_filtered, with no text).
  refusals: false,
  // Structured outputs through Converse's outputConfig.textFormat.
  async structured(base, prompt, stream) {
    const input = { modelId: MODEL, messages: [{ role: 'user' as const, content: [{ text: prompt }] }], outputConfig };
    let text = '';
    if (stream) {
      const res = await converse(base).send(new ConverseStreamCommand(input));
      for await (const e of res.stream!) text += e.contentBlockDelta?.delta?.text ?? '';
    } else {
      text = (await converse(base).send(new ConverseCommand(input))).output!.message!.content!.map((b) => b.text ?? '').join('');
    }
    return { value: JSON.parse(text), refusal: null };
  },
  // Reasoning through InvokeModel with Claude's body (@anthropic-ai/bedrock-sdk): Converse reports no thinking-token count.
  async reasoning(base, model, prompt, stream) {
    const client = new AnthropicBedrock({ awsRegion: 'us-east-1', awsAccessKey: credentials.accessKeyId, awsSecretKey: credentials.secretAccessKey, maxRetries: 0, ...(base ? { baseURL: base } : {}) });
    const body = { model, max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 2048 }, messages: [{ role: 'user' as const, content: prompt }] };
    const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body);
    const thinking = message.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
    return {
      text: message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      reasoning: thinking.length > 0 ? thinking.join('') : null,
      reasoningTokens: message.usage.output_tokens_details?.thinking_tokens ?? null,
    };
  },
});
