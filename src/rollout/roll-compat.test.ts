/**
 * ROLL's own MCPTool unit tests (alibaba/ROLL tests/agentic/tools/test_mcp_tools.py), ported:
 * same fixtures, same actions, same expected observations. The reference files under
 * fixtures/rollout/roll/reference/ hold outputs of ROLL's prompt code, Python's json and
 * jsonschema 4.26 for more inputs than ROLL's tests cover.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { jsonschemaErrorText } from './jsonschema-message.ts';
import { MCPTool, type McpClientLike } from './mcp-tool.ts';
import { pyJsonLoads } from './py-json.ts';
import { rollExampleFromSchema, rollToolPrompt } from './roll-messages.ts';
import { ParamsValidator } from './params-validator.ts';
import { findToolCall } from './tool-call.ts';

const REFERENCE = join(import.meta.dirname, '../../fixtures/rollout/roll/reference');
const reference = <T>(name: string): { cases: T[] } => JSON.parse(readFileSync(join(REFERENCE, name), 'utf8')) as { cases: T[] };

const playTool: McpToolInfo = {
  name: 'play',
  description: 'Performs a play action.',
  inputSchema: { type: 'object', properties: { action: { type: 'integer' } }, required: ['action'] },
};
const nestedTool: McpToolInfo = {
  name: 'set_user_contact',
  description: "Sets a user's contact information.",
  inputSchema: {
    type: 'object',
    properties: {
      user_id: { type: 'string', description: 'The unique identifier for the user.' },
      contact_info: { type: 'object', description: "The user's contact details.", properties: { email: { type: 'string' }, phone: { type: 'string' } }, required: ['email'] },
    },
    required: ['user_id', 'contact_info'],
  },
};

type CallResult = { isError?: boolean; content: Array<{ type: string; text: string }> };

/** ROLL's MagicMock client: a tool list, and call_tool answering (or throwing) what the test says. */
function mockClient(tools: McpToolInfo[], answer: (name: string, args: unknown) => CallResult | Promise<CallResult> = () => ({ content: [] })) {
  const calls: Array<[string, unknown]> = [];
  const client: McpClientLike = {
    listTools: async () => ({ tools }),
    callTool: async ({ name, arguments: args }) => {
      calls.push([name, args]);
      return answer(name, args);
    },
  };
  return { client, calls };
}

describe("ROLL test_mcp_tools.py, ported", () => {
  it('test_instruction_string_uses_custom_prompt_when_provided', async () => {
    const customPrompt = "This is a completely custom prompt. Use tool 'play' with param 'action'.";
    const tool = new MCPTool({ client: mockClient([playTool]).client, customPrompt });
    const prompt = await tool.instructionString();
    expect(prompt).toBe(customPrompt);
    expect(prompt).not.toContain('## AVAILABLE TOOLS');
  });

  it('test_generate_prompt_formats_correctly', () => {
    const prompt = rollToolPrompt([playTool]);
    expect(prompt).toContain('## AVAILABLE TOOLS');
    expect(prompt).toContain('"name": "play"');
    expect(prompt).toContain('<tool_call>');
    expect(prompt).toBe(prompt.trim());
  });

  it('test_prompt_example_handles_nested_objects_correctly', () => {
    const params = rollExampleFromSchema(nestedTool.inputSchema) as Record<string, Record<string, unknown>>;
    expect(typeof params.user_id).toBe('string');
    expect(typeof params.contact_info).toBe('object');
    expect(typeof params.contact_info.email).toBe('string');
    expect(typeof params.contact_info.phone).toBe('string');
  });

  it('test_parse_action_extracts_tag_correctly', () => {
    const action = '<think>some thought</think><tool_call>{"json": "content"}</tool_call>';
    expect(findToolCall(action)).toEqual({ json: '{"json": "content"}', parsedAction: action });
    expect(findToolCall('some raw text')).toBeUndefined();
  });

  it('test_validate_tool_call_with_json_schema (through execute_action)', async () => {
    const { client } = mockClient([playTool], () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const tool = new MCPTool({ client });
    const run = async (params: unknown, name = 'play') => (await tool.executeAction(`<tool_call>${JSON.stringify({ tool_name: name, tool_params: params })}</tool_call>`)).observation;
    expect(await run({ action: 1 })).toBe('<information>ok</information>');
    expect(await run({}, 'fly')).toBe("[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'fly'. Available tools are: ['play']]");
    expect(await run({ action: 'up' })).toContain("'up' is not of type 'integer'");
    expect(await run({})).toContain("'action' is a required property");
    // The whole observation, as str(jsonschema.ValidationError) makes it:
    expect(await run({ action: 'up' })).toBe(
      "[Validation Error: The tool call format is incorrect. Reason: 'up' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['action']:\n    {'type': 'integer'}\n\nOn instance['action']:\n    'up']",
    );
  });

  it('test_execute_action_handles_validation_error', async () => {
    const tool = new MCPTool({ client: mockClient([playTool]).client });
    const action = '<tool_call>{"tool_name": "play", "tool_params": {}}</tool_call>';
    const result = await tool.executeAction(action);
    expect(result.isParsed).toBe(true);
    expect(result.isValid).toBe(false);
    expect(result.observation).toContain('Validation Error: The tool call format is incorrect. ');
    expect(result.parsedAction).toBe(action);
  });

  it('test_execute_action_handles_server_execution_error', async () => {
    const tool = new MCPTool({
      client: mockClient([playTool], () => {
        throw new Error('Server refused connection');
      }).client,
    });
    const result = await tool.executeAction('<tool_call>{"tool_name": "play", "tool_params": {"action": 1}}</tool_call>');
    expect(result.isParsed).toBe(true);
    expect(result.isValid).toBe(false);
    expect(result.observation).toContain('[Execution Error: Server refused connection]');
  });

  it('test_execute_action_handles_server_business_logic_error', async () => {
    const { client, calls } = mockClient([playTool], () => ({ isError: true, content: [{ type: 'text', text: 'Error executing tool play:' }] }));
    const tool = new MCPTool({ client });
    const result = await tool.executeAction('<tool_call>{"tool_name": "play", "tool_params": {"action": 9}}</tool_call>');
    expect(result.isParsed).toBe(true);
    expect(result.isValid).toBe(false);
    expect(result.observation).toBe('[Execution Error: Error executing tool play:]');
    expect(calls).toEqual([['play', { action: 9 }]]);
  });

  it('test_calculator_tool_with_subset_of_tools (server faked in-process)', async () => {
    const number = { type: 'number' };
    const calculator: McpToolInfo[] = [
      { name: 'add', inputSchema: { type: 'object', properties: { firstNumber: number, secondNumber: number } } },
      { name: 'subtract', inputSchema: { type: 'object', properties: { minuend: number, subtrahend: number } } },
      { name: 'multiply', inputSchema: { type: 'object', properties: { a: number, b: number } } },
      { name: 'modulo', inputSchema: { type: 'object', properties: { dividend: number, divisor: number } } },
    ];
    const { client } = mockClient(calculator, (name, args) => {
      const a = args as Record<string, number>;
      return { content: [{ type: 'text', text: String(name === 'add' ? a.firstNumber + a.secondNumber : a.dividend % a.divisor) }] };
    });
    const tool = new MCPTool({ client, toolNamesSubset: ['add', 'modulo'] });
    const prompt = await tool.instructionString();
    expect(prompt).toContain('"name": "add"');
    expect(prompt).toContain('"name": "modulo"');
    expect(prompt).not.toContain('"name": "subtract"');
    expect(prompt).not.toContain('"name": "multiply"');
    const run = async (json: string) => tool.executeAction(`<tool_call>${json}</tool_call>`);
    expect(await run('{"tool_name": "add", "tool_params": {"firstNumber": 10, "secondNumber": 5}}')).toMatchObject({ isParsed: true, isValid: true, observation: '<information>15</information>' });
    expect(await run('{"tool_name": "modulo", "tool_params": {"dividend": 10, "divisor": 3}}')).toMatchObject({ isParsed: true, isValid: true, observation: '<information>1</information>' });
    const rejected = await run('{"tool_name": "subtract", "tool_params": {"minuend": 10, "subtrahend": 5}}');
    expect(rejected).toMatchObject({ isParsed: true, isValid: false });
    expect(rejected.observation).toContain("[Validation Error: The tool call format is incorrect. Reason: Unknown tool_name: 'subtract'. Available tools are: ['add', 'modulo']]");
  });

  it('_process_server_response: text blocks joined and stripped; the empty texts', async () => {
    const answers: CallResult[] = [
      { content: [{ type: 'text', text: '  a ' }, { type: 'text', text: '' }, { type: 'image', text: 'x' }, { type: 'text', text: 'b\n' }] },
      { content: [] },
      { isError: true, content: [] },
      { isError: true, content: [{ type: 'text', text: '   ' }] },
    ];
    let next = 0;
    const tool = new MCPTool({ client: mockClient([playTool], () => answers[next++]).client });
    const run = async () => (await tool.executeAction('<tool_call>{"tool_name": "play", "tool_params": {"action": 1}}</tool_call>')).observation;
    expect(await run()).toBe('<information>a \nb</information>');
    expect(await run()).toBe('<information>Tool executed successfully with no text output.</information>');
    expect(await run()).toBe('[Execution Error: Server indicated an error but provided no details.]');
    expect(await run()).toBe('[Execution Error: Server indicated an error but provided no details.]');
  });

  it('malformed calls get the reasons ROLL gives (Python json, dict check, key check)', async () => {
    const tool = new MCPTool({ client: mockClient([playTool]).client });
    const reason = async (inner: string) => (await tool.executeAction(`<tool_call>${inner}</tool_call>`)).observation;
    const prefix = '[Validation Error: The tool call format is incorrect. Reason: ';
    expect(await reason('{"tool_name": "play", ')).toBe(`${prefix}Expecting property name enclosed in double quotes: line 1 column 22 (char 21)]`);
    expect(await reason('[1, 2]')).toBe(`${prefix}Parsed JSON is not a dictionary, but <class 'list'>]`);
    expect(await reason('{"tool_params": {}}')).toBe(`${prefix}JSON must contain a 'tool_name' (string) and 'tool_params' (dict).]`);
    expect(await reason('{"tool_name": "play", "tool_params": null}')).toBe(`${prefix}JSON must contain a 'tool_name' (string) and 'tool_params' (dict).]`);
  });
});

describe('one validator decides and words the reason', () => {
  it('reads a schema naming no draft as 2020-12 for the decision too, as jsonschema.validate does', async () => {
    const pairTool: McpToolInfo = { name: 'pair', inputSchema: { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'integer' }] } } } };
    const { client, calls } = mockClient([pairTool]);
    const result = await new MCPTool({ client }).executeAction('<tool_call>{"tool_name": "pair", "tool_params": {"pair": ["x"]}}</tool_call>');
    expect(result.isValid).toBe(false);
    expect(result.observation).toContain("Reason: 'x' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['pair']['prefixItems'][0]:\n    {'type': 'integer'}\n\nOn instance['pair'][0]:\n    'x']");
    expect(calls).toEqual([]);
  });
});

describe('bounded results (a ghostwire fix, with the original behaviour as an option)', () => {
  it('cuts results over 8000 characters and says so; max_observation_chars null keeps them whole like ROLL', async () => {
    const long = 'z'.repeat(9000);
    const { client } = mockClient([playTool], () => ({ content: [{ type: 'text', text: long }] }));
    const action = '<tool_call>{"tool_name": "play", "tool_params": {"action": 1}}</tool_call>';
    expect((await new MCPTool({ client }).executeAction(action)).observation).toBe(`<information>${'z'.repeat(8000)}…[truncated 1000 chars]</information>`);
    expect((await new MCPTool({ client, maxObservationChars: null }).executeAction(action)).observation).toBe(`<information>${long}</information>`);
  });
});

describe('ROLL prompt generation, byte for byte (reference: ROLL code run on these tool lists)', () => {
  const { cases } = reference<{ tools: McpToolInfo[]; expected: string }>('tool-prompts.json');
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_i, { tools, expected }) => {
    expect(rollToolPrompt(tools.map((t) => ({ ...t, description: t.description ?? undefined })))).toBe(expected);
  });
});

describe('jsonschema wording from ajv errors (reference: jsonschema 4.26)', () => {
  const { cases } = reference<{ schema: Record<string, unknown>; instance: unknown; expected: string | null }>('jsonschema-errors.json');
  const validation = new ParamsValidator();
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_i, { schema, instance, expected }) => {
    const errors = validation.errors(schema, instance);
    expect(errors.length === 0 ? null : jsonschemaErrorText(errors, schema, instance)).toBe(expected);
  });
});

describe("Python's json.loads error messages (reference: CPython 3.11)", () => {
  const { cases } = reference<{ text: string; expected: string | null }>('json-decode-errors.json');
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_i, { text, expected }) => {
    let message: string | null = null;
    try {
      pyJsonLoads(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(expected);
  });
});
