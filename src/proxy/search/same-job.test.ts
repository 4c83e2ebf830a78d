// Same job: the same action on the same kind of object, read from names, descriptions, parameters and annotations.
import { describe, expect, it } from 'vitest';
import { Synonyms } from '../../lexicon/index.ts';
import { familyWords, JobReader, type JobTool } from './same-job.ts';

const tool = (server: string, name: string, description: string, params: string[] = ['path'], required = params): JobTool => ({ server, name, description, params, required });

describe('same job', () => {
  const jobs = new JobReader(new Synonyms());

  it('deprecated twins and the same tool on another server do the same job', () => {
    const readFile = tool('fs', 'read_file', 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.', ['path', 'head', 'tail'], ['path']);
    const readText = tool('fs', 'read_text_file', 'Read the complete contents of a file from the file system as text.', ['path', 'head', 'tail'], ['path']);
    expect(jobs.differ(readFile, readText)).toBeUndefined();
    expect(jobs.differ(tool('fs', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.'),
      tool('fs', 'list_directory_with_sizes', 'Get a detailed listing of all files and directories in a specified path, including sizes.'))).toBeUndefined();
    expect(jobs.differ(tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository', ['owner', 'repo', 'title'], ['owner', 'repo', 'title']),
      tool('gitlab', 'create_merge_request', 'Create a new merge request in a GitLab project', ['project_id', 'title'], ['project_id', 'title']))).toBeUndefined();
  });

  it('another action or another object is never the same job', () => {
    const readText = tool('fs', 'read_text_file', 'Read the complete contents of a file from the file system as text.');
    expect(jobs.differ(readText, tool('fs', 'write_file', 'Create a new file or completely overwrite an existing file with new content.', ['path', 'content']))).toBe('action');
    expect(jobs.differ(tool('m', 'create_entities', 'Create multiple new entities in the knowledge graph', ['entities']),
      tool('m', 'delete_entities', 'Delete multiple entities and their associated relations from the knowledge graph', ['entityNames']))).toBe('action');
    expect(jobs.differ(tool('dc', 'start_search', 'Start a streaming search.', ['path', 'pattern']), tool('dc', 'stop_search', 'Stop an active search.', ['sessionId']))).toBe('action');
    expect(jobs.differ(readText, tool('fs', 'read_media_file', 'Read a file and return it as a base64-encoded content block with its MIME type.'))).toBe('object');
    expect(jobs.differ(tool('gh', 'create_issue', 'Create a new issue in a GitHub repository', ['owner', 'repo', 'title']),
      tool('gh', 'create_pull_request', 'Create a new pull request in a GitHub repository', ['owner', 'repo', 'title']))).toBe('object');
    // A file of a GitHub repository (owner, repo) is not a local file.
    expect(jobs.differ(readText, tool('github', 'get_file_contents', 'Get the contents of a file or directory from a GitHub repository', ['owner', 'repo', 'path']))).toBe('object');
    // One of many is not all of them.
    expect(jobs.differ(tool('fc', 'firecrawl_monitor_check', 'Get a single check', ['id', 'checkId']), tool('fc', 'firecrawl_monitor_checks', 'List historical checks for a monitor', ['id', 'checkId']))).toBe('object');
  });

  it("a thing's details are the thing, and a manner is no object; its info is not its content", () => {
    expect(jobs.differ(tool('ado', 'get_repository', 'Get a repository by name or ID', ['project', 'repositoryId']),
      tool('ado', 'get_repository_details', 'Get detailed information about a repository', ['project', 'repositoryId']))).toBeUndefined();
    expect(jobs.differ(tool('t', 'get_health', 'Get the health of the server', []), tool('t', 'get_health_detailed', 'Get detailed health information', []))).toBeUndefined();
    // A manner (advanced, simple, quick) says how, not what.
    expect(jobs.differ(tool('attio', 'search_records', 'Search records of an object by a query', ['object', 'query'], ['object']),
      tool('attio', 'search_records_advanced', 'Search records of an object with complex filters', ['object', 'filters'], ['object']))).toBeUndefined();
    expect(jobs.differ(tool('fs', 'read_file', 'Read the complete contents of a file as text.'),
      tool('fs', 'get_file_info', 'Retrieve detailed metadata about a file or directory.'))).toBeDefined();
  });

  it('making, changing or removing, one and a batch of the same thing stand in for each other; reading, one is not a listing', () => {
    const createTask = tool('asana', 'asana_create_task', 'Create a new task in a project', ['name', 'projects'], ['name']);
    const createTasks = tool('todoist', 'create_tasks', 'Create one or more tasks', ['tasks']);
    expect(jobs.differ(createTask, createTasks)).toBeUndefined();
    expect(jobs.differ(tool('asana', 'asana_delete_section', 'Delete a section', ['section_id']), tool('todoist', 'delete_sections', 'Delete one or more sections', ['ids']))).toBeUndefined();
    expect(jobs.differ(tool('asana', 'asana_get_task', 'Get one task by its id', ['task_id']), tool('todoist', 'get_tasks', 'List tasks matching a filter', ['filter'], []))).toBe('object');
    // A read of a plural that needs the ones it reads (required items or ids) is a batch read: it stands in for one.
    const batchGet = tool('todoist', 'get_tasks', "Get tasks from Todoist. Either 'task_id' or the 'task_name' to identify the target.", ['items']);
    expect(jobs.differ(tool('asana', 'asana_get_task', 'Get detailed information about a specific task', ['task_id']), batchGet, true)).toBeUndefined();
    expect(jobs.differ(tool('linear', 'getIssues', 'Get a list of recent issues', ['first'], []), batchGet, true, { central: ['issu', 'task'] })).toBe('action');
    // Still not another action: a batch delete is no create.
    expect(jobs.differ(createTask, tool('todoist', 'delete_tasks', 'Delete one or more tasks', ['ids']))).toBe('action');
  });

  it('of servers of one kind, a tool naming a parent the other product leaves implicit does the same job', () => {
    const slack = tool('slack', 'slack_list_channels', 'List public channels in the Slack workspace with pagination.', ['limit', 'cursor'], []);
    const teams = tool('teams', 'list_channels', 'List all channels in a specific Microsoft Team.', ['teamId']);
    expect(jobs.differ(slack, teams)).toBe('object');
    expect(jobs.differ(slack, teams, true)).toBeUndefined();
    // A place one names ("for_project") the other takes as a parameter (an optional project_id) is said by it.
    const forProject = tool('asana', 'asana_get_tasks_for_project', 'Get all tasks in a project', ['project_id']);
    const tasksList = tool('todoist', 'get_tasks_list', 'Get tasks list from Todoist', ['project_id', 'label'], []);
    expect(jobs.differ(forProject, tasksList)).toBe('object');
    expect(jobs.differ(forProject, tasksList, true)).toBeUndefined();
    expect(jobs.differ(forProject, tool('todoist', 'get_tasks_list', 'Get tasks list from Todoist', ['label'], []), true)).toBe('object');
    // Still another action or another object however alike the servers.
    expect(jobs.differ(slack, tool('teams', 'create_channel', 'Create a channel in a team.', ['teamId', 'name']), true)).toBe('action');
  });

  it('two products\' central objects, one thing under two names: a Todoist task is a Plane issue, for the same action only', () => {
    const createTasks = tool('todoist', 'create_tasks', 'Create one or more tasks in Todoist', ['items']);
    const createIssue = tool('plane', 'create_issue', 'Create a new issue in a project', ['project_id', 'name']);
    expect(jobs.differ(createTasks, createIssue, true)).toBe('object');
    expect(jobs.differ(createTasks, createIssue, true, { central: ['task', 'issu'] })).toBeUndefined();
    expect(jobs.differ(createIssue, createTasks, true, { central: ['issu', 'task'] })).toBeUndefined();
    // Still another action, and still another object: a label is no issue.
    expect(jobs.differ(tool('todoist', 'delete_tasks', 'Delete tasks in Todoist', ['items']), createIssue, true, { central: ['task', 'issu'] })).toBe('action');
    expect(jobs.differ(tool('todoist', 'create_labels', 'Create new labels in Todoist', ['items']), createIssue, true, { central: ['task', 'issu'] })).toBe('object');
  });

  it('a product\'s central object qualifying another is implied by the other product; a description finding them by ID reads one', () => {
    const createComments = tool('todoist', 'create_comments', 'Create new comments in Todoist', ['items']);
    const addIssueComment = tool('plane', 'add_issue_comment', 'Add a comment to an issue', ['project_id', 'issue_id', 'comment_html']);
    expect(jobs.differ(createComments, addIssueComment, true)).toBe('object');
    expect(jobs.differ(createComments, addIssueComment, true, { central: ['task', 'issu'] })).toBeUndefined();
    expect(jobs.differ(addIssueComment, createComments, true, { central: ['issu', 'task'] })).toBeUndefined();
    // A tool needing both an issue's and a label's id links them: removing a label from an issue is no deletion of the label.
    expect(jobs.differ(tool('todoist', 'delete_labels', 'Delete a personal label in Todoist', ['items']),
      tool('linear', 'linear_removeIssueLabel', 'Remove a label from an issue', ['issueId', 'labelId']), true, { central: ['task', 'issu'] })).toBe('object');
    // Its head is no qualifier: an issue is still no comment.
    expect(jobs.differ(createComments, tool('plane', 'create_issue', 'Create a new issue', ['name']), true, { central: ['task', 'issu'] })).toBe('object');
    // "Get comments from Todoist by ID" gets one, not an issue's list of them.
    const listIssueComments = tool('plane', 'get_issue_comments', 'Get the comments of a specific issue', ['project_id', 'issue_id']);
    expect(jobs.differ(tool('todoist', 'get_comments', 'Get comments from Todoist by ID', ['items']), listIssueComments, true, { central: ['task', 'issu'] })).toBe('object');
    expect(jobs.differ(tool('todoist', 'get_comments_of', 'Get comments of a task', ['items']), listIssueComments, true, { central: ['task', 'issu'] })).toBeUndefined();
    // The ID of what they belong to, or a batch of IDs, is no "one".
    expect(jobs.job(tool('do', 'list_cluster_backups', 'List backups for a database cluster by its id', ['id'])).plural).toBe(true);
    expect(jobs.job(tool('monday', 'get_assets', 'Get assets (files) by their IDs.', ['ids'], [])).plural).toBe(true);
    expect(jobs.job(tool('todoist', 'get_comments', 'Get comments from Todoist by ID', ['items'])).plural).toBe(false);
  });

  it('things the lexicon calls by one name on two servers (a Todoist label, an Asana tag) do the same job when paired', () => {
    const updateLabels = tool('todoist', 'update_labels', 'Update a personal label in Todoist', ['items']);
    const updateTag = tool('asana', 'asana_update_tag', 'Update an existing tag', ['tag_gid', 'name']);
    expect(jobs.differ(updateLabels, updateTag, true)).toBe('object');
    expect(jobs.differ(updateLabels, updateTag, true, { kin: [['label', 'tag']] })).toBeUndefined();
    expect(jobs.differ(tool('todoist', 'delete_labels', 'Delete a personal label', ['items']), updateTag, true, { kin: [['label', 'tag']] })).toBe('action');
  });

  it('a read whose name ends in "list" lists what precedes it', () => {
    const getLabelsList = tool('todoist', 'get_labels_list', 'Get all personal labels from Todoist', [], []);
    expect(jobs.differ(getLabelsList, tool('plane', 'list_labels', 'Get all labels for a specific project', ['project_id']), true)).toBeUndefined();
    expect(jobs.job(getLabelsList).actions).toEqual(new Set(['list']));
    expect(jobs.job(getLabelsList).head).toBe('label');
    // Still no stand-in for one label, nor for making a list.
    expect(jobs.differ(getLabelsList, tool('plane', 'get_label', 'Get details of a specific label', ['label_id']), true)).toBe('action');
    expect(jobs.job(tool('m', 'create_access_list', 'Allow IP ranges to access your clusters', ['ips'])).actions).toEqual(new Set(['create']));
  });

  it('a read by a filter or a query searches', () => {
    const byFilter = tool('todoist', 'get_tasks_by_filter', 'Get tasks from Todoist using filter language.', ['query']);
    expect(jobs.job(byFilter).actions).toEqual(new Set(['search']));
    expect(jobs.differ(byFilter, tool('asana', 'asana_search_tasks', 'Search tasks in a workspace with advanced filtering options', ['workspace', 'text'], ['workspace']), true)).toBeUndefined();
    expect(jobs.differ(byFilter, tool('todoist', 'get_tasks', "Get tasks from Todoist. Either 'task_id' or the 'task_name' to identify the target.", ['items']))).toBe('action');
    // Another option is no search: "get_issue_by_id" reads one.
    expect(jobs.job(tool('gh', 'get_issue_by_id', 'Get an issue', ['id'])).actions).toEqual(new Set(['read']));
  });

  it('a read of a plural whose description opens by reading all of them lists them; a batch getter does not', () => {
    const getProjects = tool('plane', 'get_projects', 'Get all projects for the current user', [], []);
    expect(jobs.job(getProjects).actions).toEqual(new Set(['list']));
    expect(jobs.differ(getProjects, tool('todoist', 'get_projects_list', 'Get all projects from Todoist', [], []), true)).toBeUndefined();
    const batch = tool('todoist', 'get_projects', "Get projects from Todoist. Either 'id' or the 'name' to identify the target.", ['items']);
    expect(jobs.job(batch).actions).toEqual(new Set(['read']));
    expect(jobs.differ(getProjects, batch, true)).toBe('action');
    expect(jobs.job(tool('linear', 'linear_getIssues', 'Get a list of recent issues from Linear', ['first'], [])).actions).toEqual(new Set(['list']));
    // One of them, however the description opens.
    expect(jobs.job(tool('a', 'get_project', 'Get all details of a project', ['id'])).actions).toEqual(new Set(['read']));
  });

  it('a compound is a kind of its last word; where it acts and how many count; a generic name acts on what its description opens with', () => {
    expect(jobs.differ(tool('l', 'getReleases', 'Get releases', []), tool('l', 'getReleasePipelines', 'Get the pipelines of releases', []))).toBe('object');
    expect(jobs.differ(tool('c', 'generate-image', 'Generate an image from a prompt', ['prompt']), tool('c', 'generate-image-from-images', 'Generate an image from images', ['prompt']))).toBe('object');
    expect(jobs.differ(tool('b', 'approve_all', 'Approve all pending requests', []), tool('b', 'approve', 'Approve one pending request', ['id'], []))).toBe('object');
    expect(jobs.differ(tool('qase', 'qase_get', 'Fetch one known record by type and ID: case, suite, run, environment.', ['type', 'id']),
      tool('ld', 'get-environments', 'Get the environments of a project', ['project'], []))).toBe('object');
    expect(jobs.differ(tool('l', 'linear_addToFavorites', "Add an entity to the current user's Linear favorites", ['id']), tool('a', 'create_record', 'Create a record', ['object']))).toBe('object');
  });

  it('held out: server names, tool/one are no objects; words before the verb qualify; an own verb acts; a reply is no new message', () => {
    // "sentry" in a Sentry tool's name and "cosmos" on a cosmosdb server say whose tool it is.
    expect(jobs.differ(tool('cosmosdb', 'mcp_create_document', 'Create a new document in a CosmosDB container.', ['container', 'item']),
      tool('mongodb', 'insert-one', 'Insert a document into a MongoDB collection', ['database', 'collection', 'document']))).toBeUndefined();
    expect(jobs.differ(tool('google-maps', 'maps_directions', 'Get turn-by-turn directions between two points.', ['origin', 'destination']),
      tool('mapbox', 'directions_tool', 'Fetches directions from Mapbox API based on provided coordinates.', ['coordinates']))).toBeUndefined();
    // One is not many.
    expect(jobs.differ(tool('mongodb', 'delete-one', 'Removes a single document that match the filter from a MongoDB collection', ['filter']),
      tool('mongodb', 'delete-many', 'Removes all documents that match the filter from a MongoDB collection', ['filter']))).toBe('object');
    // Atlas projects are not Rollbar's.
    expect(jobs.differ(tool('mongodb', 'atlas-list-projects', 'List MongoDB Atlas projects', []), tool('rollbar', 'list-projects', 'List configured Rollbar projects available to this MCP server', []))).toBe('object');
    // Reverse geocoding is not geocoding; a light verb adds nothing ("take_screenshot" is "screenshot").
    expect(jobs.differ(tool('gm', 'maps_geocode', 'Convert an address into geographic coordinates.', ['address']), tool('gm', 'maps_reverse_geocode', 'Convert coordinates into a street address.', ['latitude', 'longitude']))).toBe('action');
    expect(jobs.differ({ ...tool('pw', 'browser_take_screenshot', 'Take a screenshot of the current page', ['filename', 'scale'], ['scale']), family: new Set(['browser']) }, tool('puppeteer', 'puppeteer_screenshot', 'Take a screenshot of the current page or a single element', ['name'], ['name']))).toBeUndefined();
    // A reply needs the message it answers; a message sent afresh does not.
    expect(jobs.differ(tool('teams', 'reply_to_channel_message', 'Reply to a specific message in a channel.', ['teamId', 'channelId', 'messageId', 'message']),
      tool('slack', 'slack_post_message', 'Post a new message to a Slack channel.', ['channel_id', 'text']))).toBe('object');
  });

  it('a server family prefix is not an object; a verb starting most names is no family', () => {
    expect(familyWords(['browser_click', 'browser_hover', 'browser_navigate', 'browser_close'])).toEqual(new Set(['browser']));
    expect(familyWords(['create_issue', 'create_branch', 'create_repository', 'fork_repository'])).toEqual(new Set());
    const family = new Set(['browser']);
    expect(jobs.differ({ ...tool('pw', 'browser_click', 'Perform click on a web page', ['target']), family }, tool('puppeteer', 'puppeteer_click', 'Click an element on the page', ['selector']))).toBeUndefined();
  });
});
