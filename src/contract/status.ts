/** Status words of the interface, and the newer vocabulary seen in real traffic. */

/** Task statuses in the interface's words. */
export const TASK_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const
/**
 * A task's status in the interface's words (the newer vocabulary, such as
 * `queued` or `succeeded`, is read as these).
 *
 * @useDeclaredType
 */
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** The newer vocabulary, by the interface's word it means. */
export const NEWER_TASK_STATUS: Readonly<Record<string, TaskStatus>> = { queued: 'pending', running: 'processing', succeeded: 'completed', failed: 'failed' }

/** Response statuses: the interface's four, and `queued` and `cancelled` seen in real traffic. */
export const RESPONSE_STATUSES = ['completed', 'incomplete', 'in_progress', 'failed', 'queued', 'cancelled'] as const
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number]

/** Statuses a response is still changing in; any other is final. */
export const RUNNING_RESPONSE_STATUSES: readonly ResponseStatus[] = ['queued', 'in_progress']

/** Errors of failed tasks that the interface shows. */
export const TASK_ERRORS = {
  execution: { code: 3001, title: 'Task Execution Error' },
  invalidRequest: { code: 400, title: 'Invalid Request' },
} as const
