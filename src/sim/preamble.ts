import { pick, seedOf } from './pieces.js'
import { listed } from './replyText.js'

/**
 * The short message a model writes before its function calls, in the same
 * response: it says which tools it is about to use, or, calling again after
 * a tool reported an error, that it corrects itself. The same request always
 * gets the same words.
 *
 * @example
 * ```ts
 * preambleText(['get_weather'], false, 'Weather in Paris?')
 * // 'Let me check with get_weather first.' (or another form, fixed by the text)
 * ```
 */
export function preambleText(names: readonly string[], again: boolean, userText: string): string {
  const tools = listed(names)
  if (again) return `That call failed, so let me try ${tools} again with corrected arguments.`
  return pick(seedOf(userText), 1, [`Let me check with ${tools} first.`, `One moment — I will use ${tools} to find out.`, `I will call ${tools} to get this right.`])
}
