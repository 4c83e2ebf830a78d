import { describe, expect, it } from 'vitest';
import { questionTerms, stem, Synonyms, tokenize, WordNet, words } from './index.ts';

describe('words and stems', () => {
  it('splits snake, kebab, camel, acronym and namespaced identifiers', () => {
    expect(words('API-post-page getPullRequest HTTPServer fs.read_file')).toEqual(['api', 'post', 'page', 'get', 'pull', 'request', 'http', 'server', 'fs', 'read', 'file']);
  });

  it('stems every form of a word alike (Porter), and drops stopwords', () => {
    expect(new Set(['issue', 'issues', 'issued'].map(stem)).size).toBe(1);
    expect(stem('files')).toBe(stem('file'));
    expect(tokenize('readFile: Reads the files')).toEqual(['read', 'file', 'read', 'file']);
    expect(tokenize('list_open_pull_requests')).toEqual(['list', 'open', 'pull', 'request']);
  });
});

describe('WordNet synonyms', () => {
  const wordnet = new WordNet();
  it('finds a lemma by binary search and reads its synsets, most frequent sense first', () => {
    expect(wordnet.senses('delete', 'verb')[0].words).toEqual(['delete', 'cancel']);
    expect(wordnet.offsets('no-such-lemma-xyz', 'noun')).toEqual([]);
    const hypernym = wordnet.synset(wordnet.senses('delete', 'verb')[0].hypernyms[0], 'verb');
    expect(hypernym.words).toContain('remove');
  });

  it('relates words through synonyms and hypernyms below the glossary, and keeps to common parts of speech', () => {
    const synonyms = new Synonyms(wordnet);
    const erase = synonyms.related('erase');
    expect(erase).toContainEqual({ term: stem('delete'), weight: 0.5 });
    expect(synonyms.related('delete').find((r) => r.term === stem('remove'))?.weight).toBe(0.3);
    expect(synonyms.related('folder')).toContainEqual({ term: stem('directory'), weight: 1 });
    // "pods" is a noun: the rare verb senses ("shell" peas, hence "get") stay out.
    expect(synonyms.related('pods').map((r) => r.term)).not.toContain('get');
    expect(synonyms.related('erase')).toBe(erase);
  });
});

describe('question words', () => {
  it('say what they ask about: a person, a count, a size', () => {
    expect(questionTerms('who is in our Slack workspace')).toEqual([{ phrase: 'who', related: ['user', 'member', 'people', 'author'].map((w) => ({ term: stem(w), weight: 0.5 })) }]);
    expect(questionTerms('how many users signed up').map((q) => q.phrase)).toEqual(['how many']);
    expect(questionTerms('show the whole list')).toEqual([]);
  });
});
