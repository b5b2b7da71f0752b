import type { ToolCall } from '../operators/toolCalls.js'

/** What a tool handler is given besides the arguments. */
export interface ToolContext extends ToolCall {
  /** The response of the loop (1 for the first) whose call this is. */
  readonly round: number
  /** Aborted when the loop is unsubscribed before the handler is done: pass it to `fetch`. */
  readonly signal: AbortSignal
}

/**
 * Answers one function call: receives the parsed arguments, returns the
 * output as a value, a Promise or an Observable (its last value). A string is
 * sent as it is, anything else as JSON. Prefer `tool()`, whose arguments are
 * validated and typed from a schema.
 */
// `any`, so a handler can declare the arguments it expects ({ city }: { city: string }).
// `any` by default: handlers of different argument types share one record.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolHandler<A = any> = (args: A, context: ToolContext) => unknown

/** Handlers by function name, as offered in the request's `tools`. */
export type ToolHandlers = Readonly<Record<string, ToolHandler>>
