/**
 * Every call to the gateway as an RxJS Observable: a plain-data client
 * ({@link createClient}) and standalone functions over it (responses, tasks,
 * tool loops, downloads), the operators that read their events, and the typed
 * errors they end in. Unsubscribing cancels the request. The same calls
 * are methods of {@link createGateway}'s facade.
 *
 * @example
 * ```ts
 * import { createClient, responses$, outputText } from 'rxgate'
 *
 * const client = createClient({ baseUrl: process.env.GATEWAY_BASE_URL!, apiKey: process.env.GATEWAY_API_KEY! })
 * responses$(client, { model: 'gpt-4.1-mini', input: 'Write a haiku', stream: true }).pipe(outputText()).subscribe(console.log)
 * ```
 *
 * @module rxgate
 */
// The function-first API: a plain-data client and standalone functions, each
// importing only what it uses, so a bundler drops what an app does not call.
export { createClient, type Client, type ClientOptions } from './client.js'
export { usageOf, type UsageTotals, type UsageEvent, type UsageOwner } from './usage.js'
export type { ClientHooks, RequestEvent, ResponseEvent } from './hooks.js'
export type { Telemetry, OperationInfo, OperationTrace, OperationOutcome, AttemptSpec, AttemptTrace, AttemptTracer } from './telemetry.js'
export { responses$, retrieveResponse$, cancelResponse$, type ResponseCallOptions, type ResponseOutput, type RetrieveOutput, type RetrieveResponseOptions } from './responses$.js'
export { textToVideo$, createTask$, task$, TASK_POLL_DEFAULTS, type TaskOptions, type CreateTaskOptions, type TextToVideoOptions } from './tasks$.js'
// Work that outlives a process: follow or create once, derived keys, checked downloads.
export { resumeTask$, type ResumeTaskOptions, type SavedTask } from './resumeTask$.js'
export { idempotencyKeyOf } from './idempotencyKeyOf.js'
export { ChecksumMismatchError, isChecksumMismatchError } from './errors/ChecksumMismatchError.js'
export { endpoints, taskEndpoint, type TaskEndpoint, type TaskEndpointOptions, type TaskKind } from './endpoints.js'
export type { PollTiming } from './contract/endpoint.js'
// Bots: tool loops, structured output, refusals.
export { runTools$, type RunToolsOptions, type ToolLoopEvent } from './runTools$.js'
export { tool, type ToolDefinition, type ToolOptions } from './tools/tool.js'
export type { StandardSchemaV1, StandardResult, StandardIssue, InferSchemaOutput } from './tools/standardSchema.js'
export type { ToolHandler, ToolHandlers, ToolContext } from './tools/types.js'
export { jsonSchemaFormat, type JsonSchemaFormat, type JsonSchemaFormatOptions } from './jsonSchemaFormat.js'
export { partialOutput, type DeepPartial, type PartialOutput } from './operators/partialOutput.js'
// Pipelines and downloads.
export { toAsyncIterable, type AsyncIterableOptions, type ObservableIterator, type OverflowPolicy } from './pipeline/toAsyncIterable.js'
export { mapConcurrent, type MapConcurrentOptions } from './pipeline/mapConcurrent.js'
export { download$ } from './download/download$.js'
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_BLOB_BYTES } from './download/maxBytes.js'
export { saveResults, type SaveResultsOptions, type SaveResultsEvent } from './download/saveResults.js'
export type { DownloadEvent, DownloadProgress, DownloadSaved, DownloadOptions, DownloadTarget, BlobTarget, WritableLike } from './download/types.js'
// The facade over the same functions.
export { createGateway, gatewayOf, type Gateway, type GatewayOptions } from './gateway.js'

export { GatewayError, isGatewayError } from './errors/GatewayError.js'
export { HttpError, isHttpError, httpErrorKind, type HttpErrorKind } from './errors/HttpError.js'
export { InvalidRequestError, isInvalidRequestError, type RequestIssue } from './errors/InvalidRequestError.js'
export { ResponseFailedError, isResponseFailedError } from './errors/ResponseFailedError.js'
export { ValidationError, isValidationError } from './errors/ValidationError.js'
export { TimeoutError, isTimeoutError } from './errors/TimeoutError.js'
export { ConnectionError, isConnectionError } from './errors/ConnectionError.js'
export { PayloadTooLargeError, isPayloadTooLargeError, type SizeLimit } from './errors/PayloadTooLargeError.js'
export { TaskFailedError, isTaskFailedError } from './errors/TaskFailedError.js'
export { TaskTimeoutError, isTaskTimeoutError } from './errors/TaskTimeoutError.js'
export { TaskCreationUnknownError, isTaskCreationUnknownError } from './errors/TaskCreationUnknownError.js'
export { ResponseRefusedError, isResponseRefusedError } from './errors/ResponseRefusedError.js'
export { ToolCallError, isToolCallError, type ToolCallFailure } from './errors/ToolCallError.js'
export { ToolRoundsExceededError, isToolRoundsExceededError } from './errors/ToolRoundsExceededError.js'
export { ResultExpiredError, isResultExpiredError } from './errors/ResultExpiredError.js'
export { BufferOverflowError, isBufferOverflowError } from './errors/BufferOverflowError.js'

export { textDeltas } from './operators/textDeltas.js'
export { outputText, responseText, type OutputTextOptions } from './operators/outputText.js'
export { finalResponse } from './operators/finalResponse.js'
export { pollTask, type PollTaskOptions, type TaskEvent, type TaskReader } from './operators/pollTask.js'
export { taskUrls } from './operators/taskUrls.js'
export { refusal, responseRefusal } from './operators/refusal.js'
export { toolCalls, type ToolCall } from './operators/toolCalls.js'
export { parsedOutput } from './operators/parsedOutput.js'
export { backoff, type BackoffOptions } from './operators/backoff.js'
export { DEFAULTS, type RetryOptions, type PollDelayOptions } from './policy/defaults.js'
export { retryDelay, pollDelay } from './policy/delays.js'
export { parseRetryAfter } from './transport/retryAfter.js'
export type { Transport, TransportRequest, TransportResponse, Exchange, ExchangePart } from './transport/types.js'
export type { AbortSignalLike } from './transport/abort.js'

export { VIDEO_URL_TTL_MS, CUSTOM_AUDIO } from './contract/limits.js'
export { checkAudio$, type AudioCheck, type AudioCheckOptions } from './audio/checkAudio$.js'
export type { AudioFetch, AudioRequestInit, AudioReply } from './audio/audioHttp.js'
export type { PublicNetworkOptions } from './transport/publicFetch.js'
export type { Response, ResponseStatus, Usage, OutputItem } from './validation/response.js'
export type { ResponseRequest } from './validation/responseRequest.js'
export type { ResponseStreamEvent, KnownStreamEvent, KnownEventType, StreamEvent, UnknownStreamEvent, UnknownEventType } from './validation/streamEvents.js'
export type { UnknownType } from './validation/otherType.js'
export type { MessageItem, ReasoningItem, FunctionCallItem, CustomToolCallItem } from './validation/outputItems.js'
export type { WebSearchCallItem, FileSearchCallItem, CodeInterpreterCallItem, ImageGenerationCallItem, McpCallItem, McpListToolsItem, McpApprovalRequestItem } from './validation/toolItems.js'
export type { ContentPart, OutputTextPart, RefusalPart, SummaryTextPart, Annotation, Logprob } from './validation/contentParts.js'
export type { TextToVideoRequest } from './validation/textToVideoRequest.js'
export { VIDEO_SIZES } from './validation/textToVideoRequest.js'
export type { TaskInfo, TaskReply, TaskStatus, TaskError, TaskCreated } from './validation/task.js'
