import { randomUUID } from 'node:crypto'
import type { TaskStatus } from '../contract/index.js'
import type { Call } from './call.js'
import type { BadPollKind } from './faultTypes.js'
import { sendJson, sendText } from './reply.js'
import { rankOf, type Task, type TaskState } from './taskModel.js'
import { statusWord, taskReply } from './taskReply.js'

const EARLIER: Record<number, TaskStatus> = { 1: 'pending', 2: 'processing' }

/**
 * Sends one of the bad task-read replies (see `BadPollKind`) for a task
 * whose true state is `state`. `backwards` reports the status before the
 * last one truthfully reported; when there is none (only `pending` was
 * seen), the true reply goes out.
 */
export async function sendBadPoll(call: Call, kind: BadPollKind, task: Task, state: TaskState, vocabulary: 'spec' | 'new', baseUrl: string): Promise<void> {
  switch (kind) {
    case 'not-json':
      return sendText(call, 200, 'application/json', 'upstream error: invalid response from task service\n')
    case 'wrong-shape':
      return sendJson(call, 200, { id: task.id, status: statusWord(state.phase, vocabulary), created_at: new Date(task.createdMs).toISOString() })
    case 'other-task':
      return sendJson(call, 200, taskReply(task, { phase: 'completed', updatedMs: state.updatedMs }, vocabulary, baseUrl, randomUUID()))
    case 'html':
      return sendText(call, 200, 'text/html; charset=utf-8', '<!DOCTYPE html>\n<html><head><title>Maintenance</title></head><body><h1>We will be back soon</h1></body></html>\n')
    case 'backwards': {
      const earlier = EARLIER[task.reported]
      const shown = earlier ? { phase: earlier, updatedMs: task.createdMs } : state
      if (!earlier && rankOf(state.phase) > task.reported) task.reported = rankOf(state.phase)
      return sendJson(call, 200, taskReply(task, shown, vocabulary, baseUrl))
    }
  }
}
