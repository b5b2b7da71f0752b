import { field } from './checkKit.js'
import type { Conversation } from './conversation.js'
import type { SimSettings } from './options.js'
import { countWords } from './pieces.js'
import { contentOf, idOf, reasoningOf } from './responseContent.js'
import type { ReadRequest } from './responseInput.js'
import { intentOf } from './responseIntent.js'
import { piecesOfItem, type PlannedItem, type StoredResponse } from './responseModel.js'
import { isReasoningModel } from './reasoningModel.js'
import { usageOf } from './usage.js'

/**
 * Decides a response's whole content from its checked request and the
 * conversation it continues: the intent (see `intentOf`), a reasoning item first for reasoning models, then the
 * cut to `max_output_tokens` (which counts reasoning tokens too; the cut
 * response is `incomplete`). Usage counts input words and output pieces.
 */
export function draftResponse(
  body: Record<string, unknown>,
  read: ReadRequest,
  talk: Conversation,
  createdMs: number,
  settings: Pick<SimSettings, 'usageShape' | 'quirks'>,
): StoredResponse {
  const intent = intentOf(read, body, talk, settings.quirks)
  const content = contentOf(intent, read, talk)
  const planned = isReasoningModel(read.model) && intent.kind !== 'fail' ? [reasoningOf(intent, read), ...content] : content
  const max = field(body, 'max_output_tokens')
  const { items, cut } = cutTo(planned, typeof max === 'number' ? max : Infinity)
  const count = (kind?: PlannedItem['kind']) => items.filter((item) => !kind || item.kind === kind).reduce((n, item) => n + piecesOfItem(item).length, 0)
  return {
    id: idOf('resp'),
    createdMs,
    request: body,
    model: read.model,
    items,
    usage: usageOf(countWords(read.allText), count(), count('reasoning'), settings.usageShape),
    outcome: intent.kind === 'fail' ? 'failed' : cut ? 'incomplete' : 'completed',
    background: field(body, 'background') === true,
    // A streamed one is held by its stream from the start: nothing but that stream moves it on.
    progress: { reached: -1, streams: field(body, 'stream') === true ? 1 : 0, cancelled: false },
  }
}

/** Keeps the first `budget` pieces across the items; the item cut is marked incomplete, the ones after it dropped. */
function cutTo(items: readonly PlannedItem[], budget: number): { items: PlannedItem[]; cut: boolean } {
  const kept: PlannedItem[] = []
  let left = budget
  for (const item of items) {
    const size = piecesOfItem(item).length
    if (size <= left) {
      kept.push(item)
      left -= size
      continue
    }
    if (left > 0) kept.push(shortened(item, left))
    return { items: kept, cut: true }
  }
  return { items: kept, cut: false }
}

function shortened(item: PlannedItem, count: number): PlannedItem {
  if (item.kind !== 'reasoning') return { ...item, pieces: item.pieces.slice(0, count), incomplete: true }
  const parts: string[][] = []
  let left = count
  for (const part of item.parts) {
    if (left <= 0) break
    parts.push(part.slice(0, left))
    left -= part.length
  }
  return { ...item, parts, incomplete: true }
}
