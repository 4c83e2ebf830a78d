import { describe, expect, it } from 'vitest';
import { actionFit, directObject, isDestructive, queryActions, refusedActions, toolActions, withoutRequestFrame } from './actions.ts';
import { objectPlace } from './detach.ts';
import { heldBack, nameObjects } from './held-back.ts';
import { speaksOfAll } from './clauses.ts';

describe('actions asked and offered', () => {
  it('reads the action a query asks for from its verbs', () => {
    expect(queryActions('open a Jira ticket for the login bug')).toEqual(new Set(['create']));
    expect(queryActions('open config.yaml')).toEqual(new Set(['read']));
    expect(queryActions('delete README.old from the repository')).toEqual(new Set(['delete']));
    // An imperative asks for its leading verb; nouns and describing verbs ask nothing.
    expect(queryActions('show the conversion drop-off from visit to purchase')).toEqual(new Set(['read']));
    // ("what pods are running": a wh-question about what is reads, and "running" describes.)
    expect(queryActions('what pods are running in the cluster')).toEqual(new Set(['read']));
    expect(queryActions('run npm install in a terminal')).toEqual(new Set(['run']));
    expect(queryActions('tell me the current time')).toEqual(new Set(['read']));
    expect(queryActions('tell the team the build is green')).toEqual(new Set(['send']));
    // Phrasal verbs mean their phrase, the particle next or a few words on.
    expect(queryActions('take Bob off this card')).toEqual(new Set(['delete']));
    expect(queryActions('throw away untracked files')).toEqual(new Set(['delete']));
    expect(queryActions("check off 'renew passport' on my list")).toEqual(new Set(['update']));
    expect(queryActions('strip the #draft marker from these pages')).toEqual(new Set(['delete']));
    // Bringing something back is its own action; a verb form after a determiner is an adjective;
    // a question about the past asks what happened.
    expect(queryActions('restore the deleted task in Todoist')).toEqual(new Set(['restore']));
    expect(queryActions('where is the deleted task')).toEqual(new Set(['read']));
    expect(queryActions('which events did I cancel last week')).toEqual(new Set());
    expect(queryActions('I have to delete the old comment')).toEqual(new Set(['delete']));
    expect(toolActions('linear_unarchiveDocument', 'Restore a previously archived Linear document')).toEqual(new Set(['restore']));
    expect(queryActions('why was the pod deleted')).toEqual(new Set());
    // A past form tells what happened; a modal that is no request tells what could.
    expect(queryActions('who deleted the release')).toEqual(new Set());
    expect(queryActions('what would happen if I deleted this repo')).toEqual(new Set());
    expect(queryActions('so what will git clean remove')).toEqual(new Set());
    expect(queryActions('could you please drop the temp collection')).toEqual(new Set(['delete']));
    // A polite or indirect frame is not the imperative.
    expect(withoutRequestFrame('Could you please delete the file?')).toBe('delete the file?');
    expect(withoutRequestFrame("I'd like to add a column")).toBe('add a column');
    expect(withoutRequestFrame('show the file')).toBe('show the file');
    expect(queryActions('please open a Jira ticket for the bug')).toEqual(new Set(['create']));
    expect(directObject('could you take Bob off the card')).toEqual(['bob']);
    // A negated verb asks nothing.
    expect(queryActions("don't delete anything, just show me the tasks")).toEqual(new Set(['read']));
    expect(queryActions('remove nothing, just show the status')).toEqual(new Set(['read']));
    expect(queryActions('never mind deleting, show the comments')).toEqual(new Set(['read']));
    expect(queryActions('list the branches and do not delete any')).toEqual(new Set(['list']));
    expect(queryActions('drop a comment on the PR saying thanks')).toEqual(new Set(['create', 'send']));
    expect(queryActions('drop the temp_import collection')).toEqual(new Set(['delete']));
    expect(queryActions('check the build status')).toEqual(new Set(['read']));
    expect(queryActions('kick off a new build')).toEqual(new Set(['create']));
    expect(queryActions('kick off the nightly build')).toEqual(new Set(['run']));
    // An HTTP method asks for its action when ranking, not when letting a destructive tool lead.
    expect(queryActions('send an HTTP DELETE request')).toEqual(new Set(['send', 'delete']));
    expect(queryActions('send an HTTP DELETE request', { methods: false })).toEqual(new Set(['send']));
    // A new object is created, whatever the verb.
    expect(queryActions('put a new task on the board')).toEqual(new Set(['create']));
    expect(queryActions('put the task on the board')).toEqual(new Set(['update']));
    // An imperative on numbers only is arithmetic: it creates nothing.
    expect(queryActions('add 3 and 4')).toEqual(new Set());
    expect(queryActions('add 3 tasks to the board')).toEqual(new Set(['create']));
  });

  it('reads what a tool acts on from its name, else from its description unless that is anything', () => {
    expect(nameObjects('delete-many', 'mongodb', 'Removes all documents that match the filter from a MongoDB collection').what).toEqual(new Set(['document']));
    expect(nameObjects('git_clean', 'git', 'Remove untracked files from the working directory').what).toEqual(new Set(['untrack', 'file']));
    expect(nameObjects('jira_delete', 'jira', 'Delete Jira resources.').what).toEqual(new Set());
    expect(nameObjects('delete_repository', 'github', 'Delete a repository').what).toEqual(new Set(['repositori']));
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
    // Archiving is the tool's action, though its name ends in another verb's word.
    const put = 'put the roadmap item on my plate';
    expect([...toolActions('archiveInitiativeUpdate', '')]).toEqual(['archive']);
    expect(heldBack(put, queryActions(put), 'archiveInitiativeUpdate', toolActions('archiveInitiativeUpdate', ''), true)).toBe(true);
  });

  it('reads what a tool name and an imperative act on: the direct object, not where', () => {
    expect(nameObjects('delete_repository', 'github')).toEqual({ what: new Set(['repositori']), where: new Set() });
    expect(nameObjects('remove_member_from_card', 'trello')).toEqual({ what: new Set(['member']), where: new Set(['card']) });
    expect(nameObjects('exec_in_pod', 'kubernetes')).toEqual({ what: new Set(), where: new Set(['pod']) });
    expect(nameObjects('kubectl_delete', 'kubernetes')).toEqual({ what: new Set(), where: new Set() });
    expect(nameObjects('API-post-page', 'notion').what).toEqual(new Set(['page']));
    expect(directObject('add a paragraph to the end of the page')).toEqual(['paragraph']);
    expect(directObject('remove that block from the page')).toEqual(['block']);
    expect(directObject('forget everything about Carol')).toBeUndefined();
    expect(directObject('take Bob off this card')).toEqual(['bob']);
    expect(directObject('what pods are running')).toBeUndefined();
    // The object ends with its clause, or where a refusal or condition begins.
    expect(directObject('delete the event, do not notify the attendees')).toEqual(['event']);
    expect(directObject('delete the branch without asking me')).toEqual(['branch']);
    expect(directObject('cancel the meeting instead of moving it')).toEqual(['meeting']);
    // Where the object is: a place after in/from/on, not a part or measure of something ("the count of users").
    expect(objectPlace('list the containers in the Cosmos DB database')).toEqual(['cosmos', 'db', 'database']);
    expect(objectPlace('list all feature flags in project web-app')).toEqual(['project', 'web', 'app']);
    expect(objectPlace('get the count of users in list 12')).toBeUndefined();
    expect(objectPlace('get the details of the Mobile initiative')).toBeUndefined();
    expect(objectPlace('list the collections')).toBeUndefined();
    expect(objectPlace('which collections are in the database')).toBeUndefined();
  });

  it('holds back a destructive tool whose action is asked on another object', () => {
    const q = 'add a paragraph to the end of the Notion page';
    const terms = { what: new Set(['paragraph']), all: new Set(['paragraph', 'end', 'notion', 'page']) };
    expect(heldBack(q, queryActions(q), 'API-post-page', new Set(['create', 'send']), true, terms, nameObjects('API-post-page', 'notion'))).toBe(true);
    expect(heldBack(q, queryActions(q), 'API-post-paragraph', new Set(['create', 'send']), true, terms, nameObjects('API-post-paragraph', 'notion'))).toBe(false);
    // No object in the name: the asked action is enough; a place in the name must be named somewhere.
    const none = { what: new Set<string>(), where: new Set<string>() };
    expect(heldBack('delete the crashed pod', new Set(['delete']), 'kubectl_delete', new Set(['delete']), true, { what: new Set(['crash', 'pod']), all: new Set(['crash', 'pod']) }, none)).toBe(false);
    const exec = nameObjects('exec_in_pod', 'kubernetes');
    expect(heldBack('run npm install in a terminal', new Set(['run']), 'exec_in_pod', new Set(['run']), true, { what: new Set(['npm', 'instal']), all: new Set(['npm', 'instal', 'termin']) }, exec)).toBe(true);
    expect(heldBack('execute a command in the pod', new Set(['run']), 'exec_in_pod', new Set(['run']), true, { what: new Set(['command']), all: new Set(['command', 'pod']) }, exec)).toBe(false);
  });

  it('reads the main clause after a leading subordinate clause, not the clause', () => {
    expect(withoutRequestFrame('before I delete anything, show me the backups')).toBe('show me the backups');
    expect(withoutRequestFrame('When you are done, please archive it')).toBe('archive it');
    expect(queryActions('before I delete anything, show me the backups')).toEqual(new Set(['read']));
    expect(queryActions('once the release is out, list the open branches')).toEqual(new Set(['list']));
    expect(queryActions('if the nightly build fails, rerun it')).toEqual(new Set(['run']));
    expect(queryActions('as soon as Bob leaves, remove him from the channel')).toEqual(new Set(['delete']));
    // No comma, no clause: the query is read as a whole.
    expect(queryActions('when was the branch deleted')).toEqual(new Set(['read']));
  });

  it('reads a verb after without, rather than, instead of, no need to as refused, never asked', () => {
    expect(queryActions('clear out the filters without deleting the saved view')).toEqual(new Set(['delete']));
    expect(refusedActions('clear out the filters without deleting the saved view')).toEqual(new Set(['delete']));
    expect(queryActions('rename the branch instead of removing it')).toEqual(new Set(['update']));
    expect(refusedActions('rename the branch instead of removing it')).toEqual(new Set(['delete']));
    expect(queryActions('mark the ticket as done rather than just deleting it')).toEqual(new Set(['update']));
    expect(queryActions('no need to delete the old builds, list them')).toEqual(new Set(['list']));
    expect(refusedActions('no need to delete the old builds, list them')).toEqual(new Set(['delete']));
    expect(refusedActions('avoid removing anyone, show the members')).toEqual(new Set(['delete']));
    expect(refusedActions('delete the old builds')).toEqual(new Set());
    // A leading refusing clause is not the request, but still refuses.
    expect(queryActions("don't archive it, delete it")).toEqual(new Set(['delete']));
    expect(queryActions('without deleting anything, list the old branches')).toEqual(new Set(['list']));
    expect(refusedActions('without deleting anything, list the old branches')).toEqual(new Set(['delete']));
    // A negating pair reaches its own verb, not one past a comma.
    expect(queryActions('never mind deleting, show the comments')).toEqual(new Set(['read']));
  });

  it('takes an imperative verb the table does not know as the verb, and later verbs only after and/or', () => {
    // "summarize" is a verb to WordNet but not to the table: "remove" after it is no request.
    expect(queryActions('summarize the thread before removing it')).toEqual(new Set());
    expect(queryActions('summarize the thread and remove it')).toEqual(new Set(['delete']));
    expect(directObject('translate the release notes into German')).toEqual(['release', 'notes']);
    // A word mostly used as a noun does not lead an imperative: later verbs still count.
    expect(queryActions('calendar events to remove from next week')).toEqual(new Set(['delete']));
    // Changing how, when or where something shows is an edit.
    expect(queryActions('hide the archived rows')).toEqual(new Set(['update']));
    expect(queryActions('postpone the release review to Monday')).toEqual(new Set(['update']));
    expect(queryActions('pin the deploy checklist in the channel')).toEqual(new Set(['update']));
  });

  it('reads dropping or sending something to a place as moving it', () => {
    expect(queryActions('drop the card into the Done column')).toEqual(new Set(['move']));
    expect(queryActions('drop the intro section below the summary')).toEqual(new Set(['move']));
    expect(queryActions('send this slide to the back')).toEqual(new Set(['move']));
    expect(queryActions('rearrange the slides')).toEqual(new Set(['move']));
    // A move tool answers an edit; an edit tool does not answer a move (nor clashes with it).
    expect(actionFit(new Set(['update']), new Set(['move']))).toBe('match');
    expect(actionFit(new Set(['move']), new Set(['update']))).toBe('unknown');
    const move = 'drop the meeting note into the archive folder';
    expect(heldBack(move, queryActions(move), 'obsidian_edit_note', new Set(['update']), true)).toBe(true);
    expect(heldBack(move, queryActions(move), 'obsidian_move_note', new Set(['move']), true)).toBe(false);
    expect(queryActions('send the report to Bob')).toEqual(new Set(['send']));
    // No place, a reason, or a bin: still a deletion.
    expect(queryActions('drop the users table')).toEqual(new Set(['delete']));
    expect(queryActions('drop the cache to free memory')).toEqual(new Set(['delete']));
    expect(queryActions('empty the trash')).toEqual(new Set(['delete']));
    expect(toolActions('new_file', 'Creates an empty file')).toEqual(new Set(['create']));
    expect(queryActions('drop the old drafts into the trash')).toEqual(new Set(['delete']));
    expect(queryActions('throw the old logs into the bin')).toEqual(new Set(['delete']));
  });

  it('holds back every deleting tool once the query refuses a delete', () => {
    const q = "archive the spring collection so it stops showing, don't delete it";
    const named = { what: new Set(['spring', 'collect']), all: new Set(['spring', 'collect', 'show']), refused: refusedActions(q) };
    expect(heldBack(q, queryActions(q), 'delete_collection', new Set(['delete']), true, named)).toBe(true);
    expect(heldBack(q, queryActions(q), 'purge_cache', new Set(['delete']), true, named)).toBe(true);
    // Asked by the imperative itself, a refused action is about something else.
    const both = 'remove the staging branch without deleting the remote one';
    expect(refusedActions(both)).toEqual(new Set(['delete']));
    expect(heldBack(both, queryActions(both), 'delete_branch', new Set(['delete']), true, { what: new Set(['stage', 'branch']), all: new Set(['stage', 'branch', 'remot']), refused: refusedActions(both) }, nameObjects('delete_branch'))).toBe(false);
    const plain = 'delete the spring collection';
    expect(heldBack(plain, queryActions(plain), 'delete_collection', new Set(['delete']), true)).toBe(false);
  });

  it('keeps archiving apart from deleting: destructive-ish, but neither answers the other', () => {
    expect(queryActions('archive the finished sprint board')).toEqual(new Set(['archive']));
    expect(isDestructive(toolActions('archive_card', 'Archive a card'), undefined)).toBe(true);
    const archive = 'archive the old card';
    expect(heldBack(archive, queryActions(archive), 'delete_card', new Set(['delete']), true)).toBe(true);
    expect(heldBack(archive, queryActions(archive), 'archive_card', new Set(['archive']), true)).toBe(false);
    const remove = 'delete the old card';
    expect(heldBack(remove, queryActions(remove), 'archive_card', new Set(['archive']), true)).toBe(true);
    expect(actionFit(new Set(['delete']), new Set(['archive']))).toBe('clash');
  });

  it('reads unpublishing and deactivating as archiving, and lets the asked tool lead when a delete is refused', () => {
    expect(queryActions('unpublish the landing page')).toEqual(new Set(['archive']));
    expect(queryActions('deactivate the old webhook')).toEqual(new Set(['archive']));
    const q = 'unpublish the pricing page so visitors stop seeing it, no deleting';
    expect(refusedActions(q)).toEqual(new Set(['delete']));
    const named = { what: new Set(['price', 'page']), all: new Set(['price', 'page', 'visitor']), refused: refusedActions(q) };
    expect(heldBack(q, queryActions(q), 'delete_page', new Set(['delete']), true, named, nameObjects('delete_page'))).toBe(true);
    expect(heldBack(q, queryActions(q), 'unpublish_page', toolActions('unpublish_page', ''), true, named, nameObjects('unpublish_page'))).toBe(false);
  });

  it('reads a choice still being weighed as asking nothing ("which ones to remove")', () => {
    expect(queryActions("which webhooks failed last week? I'm deciding which ones to remove")).not.toContain('delete');
    expect(queryActions('list the stale branches, not sure whether to delete them yet')).not.toContain('delete');
    expect(queryActions('what to delete first')).not.toContain('delete');
    // Asked outright, it still asks.
    expect(queryActions('which ones should I remove? remove the oldest')).toContain('delete');
  });

  it('reads the near future, a count question and a wh-question about what is as asking no change', () => {
    // "about to" / "going to" + a verb tells what will happen, in a relative clause after a comma too.
    expect(queryActions('what size and region is db-old, the cluster we are about to drop?')).toEqual(new Set(['read']));
    expect(queryActions("list the pods we're going to delete")).toEqual(new Set(['list']));
    expect(queryActions('which buckets are we going to empty tonight')).not.toContain('delete');
    // "how many …" counts: its counted words are nouns ("sends", "deletes").
    expect(queryActions('how many more LINE sends do we have left this month?')).toEqual(new Set());
    expect(queryActions('how many deletes did the audit log record today')).toEqual(new Set());
    // A question about a value computes rather than reads.
    expect(queryActions('what day of the week was 4 July 1976')).toEqual(new Set());
  });

  it('reads "make X the default / public / an admin" as an update, "make a/new X" as a create', () => {
    expect(queryActions('make rich menu rm-2 the default one instead of deleting rm-1')).toEqual(new Set(['update']));
    expect(queryActions('make the repository public')).toEqual(new Set(['update']));
    expect(queryActions('make Dana an admin of the workspace')).toEqual(new Set(['update']));
    expect(queryActions('make a folder for the invoices')).toEqual(new Set(['create']));
    expect(queryActions('make a new board for the launch')).toEqual(new Set(['create']));
  });

  it('reads a refusal of everything as refusing the action outright, whatever else asks it', () => {
    const q = "list my WHOIS profiles; I want to clean up the unused ones afterwards, but don't delete anything yet";
    expect(queryActions(q)).toEqual(new Set(['list']));
    expect(refusedActions(q)).toEqual(new Set(['delete']));
    expect(queryActions('drop the temp collections; on second thought, do not drop anything yet, list them first')).toEqual(new Set(['list']));
    expect(queryActions('clear the cache but never delete any of them')).not.toContain('delete');
    // A narrowed refusal leaves the asked action: "anything else", "the remote one".
    expect(queryActions('delete the stale branch, but do not delete anything else')).toEqual(new Set(['delete']));
    expect(queryActions('remove the staging branch without deleting the remote one')).toEqual(new Set(['delete']));
    // A past form after "not" describes a state, it refuses nothing.
    expect(queryActions('purge the CDN cache if it is not cleared')).toEqual(new Set(['delete']));
  });

  it('extends a refusal over the verbs coordinated with the refused one ("don\'t recreate or delete it")', () => {
    expect(queryActions("resize the disk to 50 GB, don't recreate or delete it")).not.toContain('delete');
    expect(refusedActions("resize the disk to 50 GB, don't recreate or delete it")).toEqual(new Set(['delete']));
    expect(queryActions('rename the channel, do not archive or delete it')).toEqual(new Set(['update']));
    expect(refusedActions('rename the channel, do not archive or delete it')).toEqual(new Set(['archive', 'delete']));
    expect(refusedActions('rename the channel but neither leave nor delete it')).toEqual(new Set(['delete']));
    expect(queryActions('list the channels, but never archive or remove any')).toEqual(new Set(['list']));
    // No refusal before the coordination: both verbs are asked.
    expect(queryActions('archive the channel or delete it')).toEqual(new Set(['archive', 'delete']));
    expect(refusedActions('rename the file or delete it')).toEqual(new Set());
  });

  it('holds back a destructive tool taking things from a place other than the one a removal names', () => {
    const q = 'remove the sales tile from dashboard 2';
    const vault = { ...nameObjects('delete', 'pw', 'Delete an item from your vault'), source: new Set(['vault']), server: 'pw' };
    const named = (source?: string[]) => ({ what: new Set(['sale', 'tile']), all: new Set(['sale', 'tile', 'dashboard']), ...(source ? { source: new Set(source) } : {}) });
    expect(heldBack(q, queryActions(q), 'delete', new Set(['delete']), true, named(['dashboard']), vault)).toBe(true);
    expect(heldBack(q, queryActions(q), 'delete', new Set(['delete']), true, named(['vault']), vault)).toBe(false);
    // No place named: the generic delete is not held back for it.
    expect(heldBack(q, queryActions(q), 'delete', new Set(['delete']), true, named(), vault)).toBe(false);
    // The place named is the tool's own server ("from the pw app").
    expect(heldBack(q, queryActions(q), 'delete', new Set(['delete']), true, named(['pw']), vault)).toBe(false);
  });

  it('reads an intention for later as asking nothing now, and a request with "afterwards" as asking', () => {
    expect(queryActions('list the collections; I want to drop the temp ones next week')).toEqual(new Set(['list']));
    expect(queryActions("show the old tags, we'll remove them later")).not.toContain('delete');
    expect(queryActions('merge the PR and delete the branch afterwards')).toContain('delete');
  });

  it('reads quoted content as asking nothing', () => {
    expect(queryActions('send user U123 a text on LINE: "we removed the sold-out item from your cart"')).toEqual(new Set(['send']));
    expect(queryActions('reply to Dana with "sounds good, we removed the duplicate rows and deleted the old sheet"')).toEqual(new Set(['send']));
    expect(refusedActions('post "please don\'t delete anything on staging" in the ops channel')).toEqual(new Set());
    // A short quoted name is still what is acted on.
    expect(queryActions("delete the 'Old' label")).toEqual(new Set(['delete']));
  });

  it('holds back a tool that acts on everyone at once unless the query speaks of all', () => {
    const broadcast = 'Broadcast a simple text message via LINE to all users who have followed your LINE Official Account.';
    const target = nameObjects('broadcast_text_message', 'line', broadcast);
    expect(target.all).toBe(true);
    const one = 'send user U123 a text on LINE';
    const everyone = 'send all our LINE followers a text about the sale';
    const named = (q: string) => ({ what: new Set(['user', 'text']), all: new Set(['user', 'text', 'line']), universal: speaksOfAll(q) });
    expect(heldBack(one, queryActions(one), 'broadcast_text_message', new Set(['send']), true, named(one), target)).toBe(true);
    expect(heldBack(everyone, queryActions(everyone), 'broadcast_text_message', new Set(['send']), true, named(everyone), target)).toBe(false);
    // One recipient: the tool that sends to a user leads.
    const push = nameObjects('push_text_message', 'line', 'Push a simple text message to a user via LINE.');
    expect(heldBack(one, queryActions(one), 'push_text_message', new Set(['send']), true, named(one), push)).toBe(false);
  });
});
