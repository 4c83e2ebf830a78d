import { GoogleGenAI } from '@google/genai';
import { describeStructuredConformance } from '../testing/conformance-structured.ts';
import { geminiStructuredKit } from '../testing/gemini-structured-kit.ts';

const client = (base: string | undefined) => new GoogleGenAI({ apiKey: 'g-test', httpOptions: base ? { baseUrl: base } : {} });

describeStructuredConformance(geminiStructuredKit('gemini', 'gemini-2.5-pro', client));
