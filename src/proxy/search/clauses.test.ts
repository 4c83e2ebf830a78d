import { describe, expect, it } from 'vitest';
import { words } from '../../lexicon/index.ts';
import { asksWhatIs, coordinatedWithRefused, countedPhraseEnd, futureAt, intendsLater, makesComplement, refusesAll, speaksOfAll, toEveryone, withoutQuotedText } from './clauses.ts';

describe('clause shapes that change what a verb asks', () => {
  it('reads quoted text of three words or more as content, and keeps a short quoted name', () => {
    expect(withoutQuotedText('send user U1 a text: "we removed the sold-out item"')).not.toContain('removed');
    expect(withoutQuotedText('post `please delete the old logs` in #ops')).not.toContain('delete');
    expect(withoutQuotedText("move the card to the 'Done' list")).toContain("'Done'");
    // An apostrophe is no quote: "don't … it's" stays as written.
    expect(withoutQuotedText("don't delete it, it's still used")).toBe("don't delete it, it's still used");
  });

  it('reads a verb after "about to" / "going to" / "gonna" as the near future', () => {
    const ws = words('the cluster we are about to drop');
    expect(futureAt(ws, ws.indexOf('drop'))).toBe(true);
    const going = words("we're going to just delete it");
    expect(futureAt(going, going.indexOf('delete'))).toBe(true);
    const want = words('I want to delete it');
    expect(futureAt(want, want.indexOf('delete'))).toBe(false);
  });

  it('finds the counted noun phrase of a count question', () => {
    expect(countedPhraseEnd(words('how many more LINE sends do we have left'))).toBe(5);
    expect(countedPhraseEnd(words('how much storage is left'))).toBe(3);
    expect(countedPhraseEnd(words('how do I delete a branch'))).toBe(0);
  });

  it('reads a wh-question about what something is', () => {
    const isVerb = (w: string): boolean => ['delete', 'show'].includes(w);
    expect(asksWhatIs(words('what size and region is db-old'), isVerb)).toBe(true);
    expect(asksWhatIs(words('which plan are we on'), isVerb)).toBe(true);
    expect(asksWhatIs(words('what delete options are there'), isVerb)).toBe(false);
    expect(asksWhatIs(words('show me what is in the bucket'), isVerb)).toBe(false);
  });

  it('tells "make X the default" (a setting) from "make a new X"', () => {
    expect(makesComplement(words('make rich menu rm-2 the default one'), 0)).toBe(true);
    expect(makesComplement(words('make the repo public'), 0)).toBe(true);
    expect(makesComplement(words('make Bob an admin'), 0)).toBe(true);
    expect(makesComplement(words('make a folder for the photos'), 0)).toBe(false);
    expect(makesComplement(words('make a new board'), 0)).toBe(false);
    expect(makesComplement(words('make copies of the files for the team'), 0)).toBe(false);
    expect(makesComplement(words('make sure the build is green'), 0)).toBe(false);
  });

  it('tells a refusal of everything from a narrowed one', () => {
    expect(refusesAll([])).toBe(true);
    expect(refusesAll(['anything', 'yet'])).toBe(true);
    expect(refusesAll(['any', 'of', 'them'])).toBe(true);
    expect(refusesAll(['yet'])).toBe(true);
    expect(refusesAll(['anything', 'else'])).toBe(false);
    expect(refusesAll(['any', 'other', 'files'])).toBe(false);
    expect(refusesAll(['them'])).toBe(false);
  });

  it('reads an intention for later as asking nothing now', () => {
    expect(intendsLater('I want to clean up the unused ones afterwards, but not yet')).toBe(true);
    expect(intendsLater("we'll delete them next week")).toBe(true);
    expect(intendsLater('we’ll delete them next week')).toBe(true);
    expect(intendsLater('I want to delete them')).toBe(false);
    expect(intendsLater('merge the PR and delete the branch afterwards')).toBe(false);
  });

  it('reads a scope of everyone in a query and in a tool description', () => {
    expect(speaksOfAll('send all our followers the deals')).toBe(true);
    expect(speaksOfAll('send user U123 a text')).toBe(false);
    expect(speaksOfAll('add tags in one all-or-nothing transaction')).toBe(false);
    expect(toEveryone('Broadcast a simple text message via LINE to all users who have followed your account')).toBe(true);
    expect(toEveryone('Removes all documents that match the filter')).toBe(false);
    expect(toEveryone('Push a simple text message to a user via LINE')).toBe(false);
  });

  it('extends a refusal over a verb coordinated with the refused one', () => {
    const isVerb = (w: string): boolean => ['recreate', 'delete', 'leave', 'archive', 'rename'].includes(w);
    const refused = (ws: string[], j: number): boolean => ws[j - 1] === "don't" || ws[j - 1] === 'never';
    const at = (text: string, verb: string): boolean => { const ws = words(text); return coordinatedWithRefused(ws, ws.indexOf(verb), isVerb, refused); };
    expect(at("don't recreate or delete it", 'delete')).toBe(true);
    expect(at('never archive or delete any', 'delete')).toBe(true);
    expect(at('neither leave nor delete the room', 'delete')).toBe(true);
    // No refusal before "or", or no verb before it: nothing is refused.
    expect(at('rename or delete the file', 'delete')).toBe(false);
    expect(at("don't rename the file or delete it", 'delete')).toBe(false);
  });
});

