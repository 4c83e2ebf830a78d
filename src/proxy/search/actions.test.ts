import { describe, expect, it } from 'vitest';
import { actionFit, heldBack, isDestructive, queryActions, toolActions } from './actions.ts';

describe('actions asked and offered', () => {
  it('reads the action a query asks for from its verbs', () => {
    expect(queryActions('open a Jira ticket for the login bug')).toEqual(new Set(['create']));
    expect(queryActions('open config.yaml')).toEqual(new Set(['read']));
    expect(queryActions('delete README.old from the repository')).toEqual(new Set(['delete']));
    // An imperative asks for its leading verb; nouns and describing verbs ask nothing.
    expect(queryActions('show the conversion drop-off from visit to purchase')).toEqual(new Set(['read']));
    expect(queryActions('what pods are running in the cluster')).toEqual(new Set());
    expect(queryActions('run npm install in a terminal')).toEqual(new Set(['run']));
  });

  it('reads a tool action from its name, else its description, and its destructiveness from annotations too', () => {
    expect(toolActions('jira_delete', 'Delete Jira resources.')).toEqual(new Set(['delete']));
    expect(toolActions('API-post-page', 'Notion | Create a page')).toEqual(new Set(['create', 'send']));
    expect(toolActions('cleanup', 'Cleanup all managed resources')).toEqual(new Set());
    expect(isDestructive(new Set(['delete']), undefined)).toBe(true);
    expect(isDestructive(new Set(), { destructiveHint: true })).toBe(true);
    expect(isDestructive(new Set(['delete']), { readOnlyHint: true })).toBe(false);
    expect(actionFit(new Set(['read']), new Set(['list']))).toBe('unknown');
    expect(actionFit(new Set(['create']), new Set(['delete']))).toBe('clash');
  });

  it('holds back a destructive tool unless the query asks for its action', () => {
    const q = 'open a Jira ticket for the login bug';
    expect(heldBack(q, queryActions(q), 'jira_delete', new Set(['delete']), true)).toBe(true);
    expect(heldBack(q, queryActions(q), 'jira_post', new Set(['create']), true)).toBe(false);
    expect(heldBack('label this commit as v2', new Set(), 'delete_label', new Set(['delete']), true)).toBe(true);
    // A tool of no known verb, annotated destructive, is asked for by name.
    expect(heldBack('click the submit button', new Set(), 'browser_click', new Set(), true)).toBe(false);
    expect(heldBack('what is on the page', new Set(), 'browser_click', new Set(), true)).toBe(true);
  });
});
