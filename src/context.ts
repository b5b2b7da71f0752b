import type { Observable } from 'rxjs'
import type { PollDelayOptions } from './operators/backoff.js'
import type { TaskEvent } from './operators/pollTask.js'
import type { Client } from './transport/client.js'

/** What the public `$` functions share: the transport client and the gateway's settings. */
export interface Context {
  readonly client: Client
  /** Response creation path; retrieval is `${responsesPath}/{id}`. */
  readonly responsesPath: string
  readonly responsePoll: Required<PollDelayOptions>
  readonly resumeAttempts: number
  /** Task polling set for the whole gateway, over the defaults of each kind. */
  readonly taskPoll: PollDelayOptions
  readonly taskDeadlineMs: number
  /** Poll loops of `task$` in progress, by result URL path: subscribers of one task share one loop. */
  readonly followed: Map<string, Observable<TaskEvent>>
}
