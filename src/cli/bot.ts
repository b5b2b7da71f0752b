import { join } from 'node:path'
import { filter, map, switchMap, tap, throwError, type Observable } from 'rxjs'
import type { Gateway } from '../gateway.js'
import { outputText } from '../operators/outputText.js'
import type { TaskEvent } from '../operators/pollTask.js'
import type { TextToVideoRequest } from '../validation/textToVideoRequest.js'
import { download$ } from './download.js'

/** Options of {@link bot$}. */
export interface BotOptions {
  /** What the video is about. */
  readonly topic: string
  /** Model that writes the video prompt. */
  readonly model: string
  readonly size: NonNullable<TextToVideoRequest['size']>
  readonly duration: NonNullable<TextToVideoRequest['duration']>
  /** Folder the video is saved to. */
  readonly outDir: string
}

/** What the bot shows while it works. */
export interface BotView {
  delta(text: string): void
  task(event: TaskEvent): void
}

/** The bot's result: the prompt it wrote, the video URLs, and the saved file. */
export interface BotResult {
  readonly prompt: string
  readonly taskId: string
  readonly urls: readonly string[]
  readonly file: string
  readonly bytes: number
}

const INSTRUCTIONS =
  'You write prompts for a text-to-video model: one paragraph, under 60 words, ' +
  'describing one continuous shot with subject, setting, light, and camera movement.'

/**
 * The text-then-video bot: streams a response that writes a video prompt
 * (each delta shown as it arrives), pipes the final text into `textToVideo$`,
 * shows each status change, and saves the video before its URL expires.
 * Unsubscribing at any step cancels that step's request.
 */
export function bot$(gateway: Gateway, options: BotOptions, view: BotView): Observable<BotResult> {
  let prompt = ''
  return gateway
    .responses$({ model: options.model, instructions: INSTRUCTIONS, input: `A short video about: ${options.topic}`, stream: true })
    .pipe(
      tap((event) => {
        if (event.type === 'response.output_text.delta') view.delta(event.delta)
      }),
      outputText(),
      map((text) => (prompt = text.trim().slice(0, 2000))),
      switchMap((text) => gateway.textToVideo$({ prompt: text, size: options.size, duration: options.duration })),
      tap((event) => view.task(event)),
      filter((event): event is Extract<TaskEvent, { type: 'completed' }> => event.type === 'completed'),
      switchMap((done) => {
        const url = done.urls[0]!
        if (done.expiresAt && done.expiresAt.getTime() <= Date.now()) {
          return throwError(() => new Error(`The video URL of task ${done.taskId} has expired; read it again with: rxgate task t2vSpark ${done.taskId}`))
        }
        const file = join(options.outDir, `${done.taskId}.mp4`)
        return download$(url, file).pipe(map((bytes) => ({ prompt, taskId: done.taskId, urls: done.urls, file, bytes })))
      }),
    )
}
