/**
 * Words and their relations, shared by the proxy's tool search and the mock LLM's embeddings.
 */
export { words, stem, tokenize, STOPWORDS } from './words.ts';
export { questionTerms, sharedSynonyms, Synonyms, type Related } from './synonyms.ts';
export { sharedWordNet, WordNet, type PartOfSpeech, type Synset } from './wordnet.ts';
export { literalTerms } from './literals.ts';
export { IRREGULAR_FORMS } from './irregular-verbs.ts';
