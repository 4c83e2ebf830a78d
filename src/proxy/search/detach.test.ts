import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../lexical.ts';
import { detachment, toolSource } from './detach.ts';

describe('detaching is not deleting', () => {
  it('reads what a query takes a label, a person or a word off', () => {
    expect(detachment("remove the 'Newsletters' label from these three emails")?.from).toEqual(['email']);
    expect(detachment('take Bob off this card')?.from).toEqual(['card']);
    expect(detachment('Please remove the Newsletters label from these 3 emails')?.from).toEqual(['email']);
    // A pronoun may stand for a person or a file: what it is taken off decides.
    expect(detachment('a teammate left, take them off the Payments squad')?.from).toEqual(['payment', 'squad']);
    expect(detachment('take them off the Payments squad')?.from).toEqual(['payment', 'squad']);
    expect(detachment("delete the word 'draft' from the title of issue ENG-3")?.from).toEqual(['titl', 'issu']);
    // An identifier says nothing of what it is.
    expect(detachment('remove the bug label from ENG-21')?.from).toEqual([]);
  });

  it('leaves deleting a thing that exists on its own, and queries without a source, alone', () => {
    expect(detachment('delete README.old from the repository')).toBeUndefined();
    expect(detachment('remove the staging branch from the Bitbucket repo')).toBeUndefined();
    expect(detachment('delete the bug label')).toBeUndefined();
    expect(detachment('show the labels on these emails')).toBeUndefined();
  });

  it('reads what a tool takes things from, in its name or its description', () => {
    expect(toolSource('removeIssueLabel', 'Remove a label from an issue in Linear', 'linear')).toEqual(new Set(['issu']));
    expect(toolSource('remove_member_from_card', 'Remove a member from a specific card')).toEqual(new Set(['card', 'specif']));
    expect(toolSource('delete_label', 'Deletes a Gmail label', 'gmail')).toEqual(new Set());
  });

  it('edits what the query detaches from, never leading with a tool that deletes the label itself', () => {
    const index = new LexicalIndex([
      { id: 'gmail/delete_label', name: 'delete_label', description: 'Deletes a Gmail label', params: ['id'] },
      { id: 'todo/remove_shared_labels', name: 'remove_shared_labels', description: 'Remove a shared label', params: ['name'] },
      { id: 'gmail/modify_email', name: 'modify_email', description: 'Modifies an email', params: ['messageId', 'labelIds'] },
      { id: 'gmail/read_email', name: 'read_email', description: 'Reads an email', params: ['messageId'] },
      { id: 'gmail/send_email', name: 'send_email', description: 'Sends an email', params: ['to', 'subject'] },
      { id: 'linear/removeIssueLabel', name: 'removeIssueLabel', description: 'Remove a label from an issue in Linear', params: ['issueId', 'labelId'] },
    ]);
    // The label tools score higher (they share "remove" and "label"), but the query edits the emails.
    const hits = index.search("remove the 'Newsletters' label from these three emails", 4);
    expect(hits[0].id).toBe('gmail/modify_email');
    expect(hits[1].score).toBeGreaterThan(hits[0].score);
    // Taken off an issue, the detaching tool for issues leads; deleting the label outright still finds delete_label.
    expect(index.search('remove the bug label from the issue', 4)[0].id).toBe('linear/removeIssueLabel');
    expect(index.search('delete the Newsletters label in Gmail', 4)[0].id).toBe('gmail/delete_label');
    // Taken off something the query names only by an identifier: a tool taking labels off issues may
    // lead, one deleting labels outright may not.
    const off = index.search('take the urgent label off ENG-5', 4);
    expect(off[0].id).toBe('linear/removeIssueLabel');
    expect(index.search('take the urgent label off ENG-5', 4, (id) => id !== 'linear/removeIssueLabel')[0].id).toBe('gmail/modify_email');
  });
});
