// `{ regex, flags }`, the one way both scenario formats (the LLM's and the MCP mock's) spell a pattern: in a
// module of its own so the MCP format can use it without loading the LLM format and its provider registry.
import { z } from 'zod';

export const RegexSchema = z.object({ regex: z.string(), flags: z.string().optional() }).strict();
