import { describe, expect, it } from 'vitest';
import { questionTerms, stem, Synonyms, tokenize, WordNet, words } from './index.ts';

describe('words and stems', () => {
  it('splits snake, kebab, camel, acronym and namespaced identifiers', () => {
    expect(words('API-post-page getPullRequest HTTPServer fs.read_file')).toEqual(['api', 'post', 'page', 'get', 'pull', 'request', 'http', 'server', 'fs', 'read', 'file']);
  });

  it('stems every form of a word alike (Porter), and drops stopwords', () => {
    expect(new Set(['issue', 'issues', 'issued'].map(stem)).size).toBe(1);
    expect(stem('files')).toBe(stem('file'));
    // Irregular verbs too: Porter cannot know "broken" is "break".
    expect(stem('broken')).toBe(stem('break'));
    expect(stem('written')).toBe(stem('writes'));
    expect(stem('sent')).toBe(stem('sending'));
    expect(tokenize('readFile: Reads the files')).toEqual(['read', 'file', 'read', 'file']);
    expect(tokenize('list_open_pull_requests')).toEqual(['list', 'open', 'pull', 'request']);
  });

  it('gives a word and its -s, -ed and -ing forms one stem, whatever the base looks like', () => {
    const families = [
      // Porter keeps these bases' final e (nothing but vowels after the first consonants) and drops it from -ed/-ing.
      ['queue', 'queued', 'queues', 'queuing', 'queueing'], ['tie', 'tied', 'ties'], ['glue', 'glued', 'glues'],
      ['dye', 'dyed', 'dyes', 'dyeing'], ['see', 'sees', 'seeing', 'seen'], ['toe', 'toed', 'toes'],
      // Bases whose final e Porter already treats alike: the rule leaves them as they were.
      ['issue', 'issues', 'issued', 'issuing'], ['release', 'released', 'releases', 'releasing'],
      ['create', 'created', 'creates', 'creating'], ['update', 'updated', 'updates', 'updating'],
      ['delete', 'deleted', 'deletes', 'deleting'], ['archive', 'archived', 'archives', 'archiving'],
      ['rename', 'renamed', 'renames', 'renaming'], ['note', 'noted', 'notes', 'noting'], ['page', 'paged', 'pages', 'paging'],
    ];
    for (const forms of families) expect(forms.map(stem), forms[0]).toEqual(forms.map(() => stem(forms[0])));
    // Only a final e is touched, and only where -ed or -ing could leave that rest: other stems stay Porter's.
    expect(stem('note')).not.toBe(stem('not'));
    expect(stem('site')).not.toBe(stem('sit'));
    expect(['queue', 'issue', 'note', 'pre'].map(stem)).toEqual(['queu', 'issu', 'note', 'pre']);
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

  it('relates words through synonyms and hypernyms below the software lexicon, and keeps to common parts of speech', () => {
    const plain = new Synonyms(wordnet, []);
    const erase = plain.related('erase');
    expect(erase).toContainEqual({ term: stem('delete'), weight: 0.5 });
    expect(plain.related('delete').find((r) => r.term === stem('remove'))?.weight).toBe(0.3);
    const synonyms = new Synonyms(wordnet);
    expect(synonyms.related('folder')).toContainEqual({ term: stem('directory'), weight: 0.8 });
    expect(synonyms.related('delete').find((r) => r.term === stem('remove'))?.weight).toBe(0.8);
    expect(synonyms.related('repo').map((r) => r.term)).toContain(stem('repository'));
    // "pods" is a noun: the rare verb senses ("shell" peas, hence "get") stay out.
    expect(synonyms.related('pods').map((r) => r.term)).not.toContain('get');
    expect(plain.related('erase')).toBe(erase);
  });
});

describe('software lexicon phrases', () => {
  it('finds multi-word terms in a query and relates them to their group', () => {
    const synonyms = new Synonyms(new WordNet(), ['hover | mouse over | mouseover', 'pull request | pr | merge request']);
    expect(synonyms.phrases('mouse over the menu')).toEqual([{ phrase: 'mouse over', related: [{ term: 'hover', weight: 0.8 }, { term: 'mouseov', weight: 0.8 }] }]);
    expect(synonyms.phrases('open merge requests').map((p) => p.phrase)).toEqual(['merge request']);
    expect(synonyms.related('pr').map((r) => r.term)).toEqual(expect.arrayContaining(['pull', 'request', 'merg']));
    expect(synonyms.phrases('move the mouse')).toEqual([]);
    // "going to" + a verb is the future, not the phrase "go to".
    const browsing = new Synonyms(new WordNet(), ['navigate | go to | visit']);
    expect(browsing.phrases('is it going to rain in Lisbon')).toEqual([]);
    expect(browsing.phrases('go to the login page').map((p) => p.phrase)).toEqual(['go to']);
    // A tool name's word, as the lexicon alone relates it (what the index adds beside the name).
    expect(synonyms.lexiconTerms('pr')).toEqual(['pull', 'request', 'merg']);
    expect(new Synonyms().lexiconTerms('directory')).toEqual(expect.arrayContaining(['folder', 'dir']));
  });

  it('gives the single words of a word\'s groups as its other names, no phrase\'s words', () => {
    const tags = new Synonyms(new WordNet(), ['tag | label | release tag | hashtag']);
    expect(tags.lexiconWords('tags')).toEqual(['label', 'hashtag']);
    expect(tags.lexiconWords('label')).toEqual(['tag', 'hashtag']);
    expect(tags.lexiconTerms('tag')).toContain('releas');
    expect(tags.lexiconWords('release')).toEqual([]);
  });
});

describe('question words', () => {
  it('say what they ask about: a person, a count, a size', () => {
    expect(questionTerms('who is in our Slack workspace')).toEqual([{ phrase: 'who', related: ['user', 'member', 'people', 'author', 'collaborator', 'owner'].map((w) => ({ term: stem(w), weight: 0.5 })) }]);
    expect(questionTerms('how many users signed up').map((q) => q.phrase)).toEqual(['how many']);
    expect(questionTerms('show the whole list')).toEqual([]);
    expect(questionTerms("what's in this folder").map((q) => q.phrase)).toEqual(["what's in"]);
    expect(questionTerms('how high above sea level is Denver').map((q) => q.phrase)).toEqual(['how high']);
    expect(questionTerms('what happened on the board lately')[0].related.map((r) => r.term)).toEqual(['activ', 'histori', 'event']);
    expect(questionTerms('show me what is inside config.yaml')[0].related.map((r) => r.term)).toEqual(['content', 'read']);
  });
});
