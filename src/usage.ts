import { callHook } from './callHook.js'
import type { Budget } from './policy/budget.js'
import { scrubText } from './errors/redact.js'
import type { Response } from './validation/response.js'

/** Token counts, summed over responses. */
export interface UsageTotals {
  /** Responses counted (those that reported usage). */
  readonly responses: number
  /** Input (prompt) tokens. */
  readonly inputTokens: number
  /** Output (completion) tokens, reasoning included. */
  readonly outputTokens: number
  /** Input and output tokens together. */
  readonly totalTokens: number
  /** Input tokens served from the cache. */
  readonly cachedTokens: number
  /** Output tokens spent on reasoning. */
  readonly reasoningTokens: number
}

/** The usage of one finished response, in either shape real traffic uses, as `onUsage` sees it. */
export interface UsageEvent extends Omit<UsageTotals, 'responses'> {
  /** The response's id. */
  readonly responseId: string
  /** The model that answered. */
  readonly model: string
}

const EMPTY: UsageTotals = { responses: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, cachedTokens: 0, reasoningTokens: 0 }
const totals = new WeakMap<UsageOwner, UsageTotals>()

/** What usage is kept for: a client, whose `onUsage` hook hears of each response counted. */
export interface UsageOwner {
  /** The hook told of each response counted. */
  readonly hooks?:
    | {
        /** Told of each response counted. */
        readonly onUsage?: ((event: UsageEvent) => void) | undefined
      }
    | undefined
  /** The key, masked in what the hook hears: the gateway's words (`id`, `model`) may echo it. */
  readonly secret?: string | undefined
  /**
   * The client's budget, told what each response used: under
   * `maxTokensPerMinute` the reported usage replaces the creation's estimate.
   *
   * @internal
   */
  readonly budget?: Pick<Budget, 'spent'> | undefined
}

/**
 * The token usage of every response this client created and saw finish:
 * streamed, single or background, whichever usage shape the gateway sent
 * (`prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`).
 *
 * @example
 * ```ts
 * await lastValueFrom(responses$(client, { model: 'gpt-4.1-mini', input: 'Say hi' }))
 * console.log(usageOf(client).totalTokens > 0)
 * // Output: true
 * ```
 */
export function usageOf(client: UsageOwner): UsageTotals {
  return totals.get(client) ?? EMPTY
}

/**
 * Adds a finished response's usage to its client's totals, and tells the
 * client's `onUsage` hook, with the key masked in the gateway's `id` and
 * `model` (a hostile or broken gateway may echo it there), and the client's
 * budget, whose estimate for the response it replaces: the one of the
 * creation sent with `idempotencyKey` when given (exact, whatever order
 * concurrent responses end in), else the smallest one still waiting for its
 * usage (never frees more than the right one would). A response without
 * usage leaves its estimate standing.
 */
export function recordUsage(client: UsageOwner, response: Response, idempotencyKey?: string): void {
  const u = response.usage
  if (!u) {
    client.budget?.spent(undefined, idempotencyKey)
    return
  }
  const inputTokens = u.input_tokens ?? u.prompt_tokens ?? 0
  const outputTokens = u.output_tokens ?? u.completion_tokens ?? 0
  const counts = {
    inputTokens,
    outputTokens,
    totalTokens: u.total_tokens ?? inputTokens + outputTokens,
    cachedTokens: u.input_tokens_details?.cached_tokens ?? u.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u.output_tokens_details?.reasoning_tokens ?? u.completion_tokens_details?.reasoning_tokens ?? 0,
  }
  const t = usageOf(client)
  totals.set(client, {
    responses: t.responses + 1,
    inputTokens: t.inputTokens + counts.inputTokens,
    outputTokens: t.outputTokens + counts.outputTokens,
    totalTokens: t.totalTokens + counts.totalTokens,
    cachedTokens: t.cachedTokens + counts.cachedTokens,
    reasoningTokens: t.reasoningTokens + counts.reasoningTokens,
  })
  client.budget?.spent(counts.totalTokens, idempotencyKey)
  // The key is looked for in the gateway's words only when a hook will hear them.
  const onUsage = client.hooks?.onUsage
  if (!onUsage) return
  const mask = (text: string) => (client.secret ? scrubText(text, client.secret) : text)
  callHook(onUsage, { responseId: mask(response.id), model: mask(response.model), ...counts } satisfies UsageEvent)
}
