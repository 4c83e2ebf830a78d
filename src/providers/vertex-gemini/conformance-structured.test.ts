import { GoogleGenAI } from '@google/genai';
import { describeStructuredConformance } from '../testing/conformance-structured.ts';
import { geminiStructuredKit } from '../testing/gemini-structured-kit.ts';
import { staticTokenClient } from '../vertex-shared/test-auth.ts';

const client = (base: string | undefined) =>
  new GoogleGenAI({ vertexai: true, project: 'ghost-project', location: 'us-central1', googleAuthOptions: { authClient: staticTokenClient() }, httpOptions: base ? { baseUrl: base } : {} });

describeStructuredConformance(geminiStructuredKit('vertex-gemini', 'gemini-3-flash-preview', client));
