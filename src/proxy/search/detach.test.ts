import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../lexical.ts';
import { detachment, removalSource, toolSource } from './detach.ts';

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
  it('reads where any removal takes its object from, up to the end of its clause', () => {
    expect(removalSource('remove the sales chart from dashboard 7 — only the chart, keep the saved question')).toEqual(['dashboard']);
    expect(removalSource('please delete the draft from the shared mailbox, it is stale')).toEqual(['share', 'mailbox']);
    expect(removalSource('delete the draft')).toBeUndefined();
    expect(removalSource('copy the chart from dashboard 7')).toBeUndefined();
    // An identifier alone names no place.
    expect(removalSource('remove card 12 from dashboard 7')).toEqual(['dashboard']);
    expect(removalSource('remove card 12 from 7')).toBeUndefined();
  });

  it('never leads a removal with a destructive tool that takes things from another place', () => {
    const index = new LexicalIndex([
      { id: 'pw/delete', name: 'delete', description: 'Delete an item from your vault', params: ['id'] },
      { id: 'pw/delete_folder', name: 'delete_folder', description: 'Delete a folder from your vault', params: ['id'] },
      { id: 'pw/list', name: 'list', description: 'List items in your vault', params: ['search'] },
      { id: 'bi/remove_card_from_dashboard', name: 'remove_card_from_dashboard', description: 'Remove a card from a dashboard', params: ['dashboard_id', 'card_id'] },
      { id: 'bi/get_dashboard', name: 'get_dashboard', description: 'Get a dashboard', params: ['dashboard_id'] },
    ]);
    // "tile" and "board" are no words of the generic delete, which would lead on "remove" alone: it takes things from a vault.
    expect(index.search('remove the sales tile from the board', 3)[0].id).toBe('bi/remove_card_from_dashboard');
    expect(index.search('remove the revenue tile from the overview page', 3)[0].id).not.toBe('pw/delete');
    // Taken from the vault, or from nowhere named, the generic delete may lead.
    expect(index.search('delete the Netflix login item from the vault', 3)[0].id).toBe('pw/delete');
    expect(index.search('delete the Netflix login item', 3)[0].id).toBe('pw/delete');
  });
});
