import { join } from 'node:path'
import { catchError, concat, defer, EMPTY, filter, ignoreElements, map, of, switchMap, tap, throwError, type Observable } from 'rxjs'
import * as v from 'valibot'
import { TEXT_TO_VIDEO } from '../contract/limits.js'
import type { Gateway } from '../gateway.js'
import { outputText } from '../operators/outputText.js'
import type { TaskEvent } from '../operators/pollTask.js'
import { isToolRoundsExceededError } from '../errors/ToolRoundsExceededError.js'
import { runTools$ } from '../runTools$.js'
import { tool } from '../tools/tool.js'
import type { TextToVideoRequest } from '../validation/textToVideoRequest.js'
import { download$ } from './download.js'

/** Options of {@link bot$}. */
export interface BotOptions {
  /** What the video is about. */
  readonly topic: string
  /** Model that writes the video prompt. */
  readonly model: string
  /** Size and duration used when the model's choice is not a valid one. */
  readonly size: NonNullable<TextToVideoRequest['size']>
  readonly duration: NonNullable<TextToVideoRequest['duration']>
  /** Folder the video is saved to. */
  readonly outDir: string
  /** Replace a file already there (`--overwrite`); otherwise saving fails with `OutputExistsError`. */
  readonly overwrite?: boolean
}

/** What the bot shows while it works. */
export interface BotView {
  delta(text: string): void
  /** One tool call answered, as a line: `Tool choose_video_settings({...}) → {...}`. */
  tool(line: string): void
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

const SETTINGS_INSTRUCTIONS = 'You set up a text-to-video render: choose the frame size and the length in seconds that suit the prompt.'

/** What the settings tool returns, and what its arguments must be: the interface's sizes and durations. */
const VideoSettings = v.object({ size: v.picklist(TEXT_TO_VIDEO.sizes), duration: v.picklist(TEXT_TO_VIDEO.durations) })
type VideoSettings = v.InferOutput<typeof VideoSettings>

/**
 * The text-then-video bot: streams a response that writes a video prompt
 * (each delta shown as it arrives); lets the model pick the video's size and
 * duration for that prompt with one tool, `choose_video_settings`, answered
 * here (a choice outside the interface's values falls back to the options);
 * pipes the prompt into `textToVideo$`, shows each status change, and saves
 * the video before its URL expires. Unsubscribing at any step cancels that
 * step's request.
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
      map((text) => (prompt = text.trim().slice(0, TEXT_TO_VIDEO.promptMaxChars))),
      switchMap((text) => chooseSettings$(gateway, options, text, view)),
      switchMap((settings) => gateway.textToVideo$({ prompt, ...settings })),
      tap((event) => view.task(event)),
      filter((event): event is Extract<TaskEvent, { type: 'completed' }> => event.type === 'completed'),
      switchMap((done) => {
        const url = done.urls[0]!
        if (done.expiresAt && done.expiresAt.getTime() <= Date.now()) {
          return throwError(() => new Error(`The video URL of task ${done.taskId} has expired; read it again with: rxgate task t2vSpark ${done.taskId}`))
        }
        const file = join(options.outDir, `${done.taskId}.mp4`)
        return download$(url, file, { allowHosts: [gateway.client.baseUrl], overwrite: options.overwrite ?? false }).pipe(map((bytes) => ({ prompt, taskId: done.taskId, urls: done.urls, file, bytes })))
      }),
    )
}

/**
 * The tool round: the model calls `choose_video_settings` for the prompt;
 * arguments outside the interface's values go back to it, and it calls
 * again. The loop stops at the first good call (the model's words after it
 * are not needed); a model that never makes one leaves the options' values.
 */
function chooseSettings$(gateway: Gateway, options: BotOptions, prompt: string, view: BotView): Observable<VideoSettings> {
  let chosen: VideoSettings = { size: options.size, duration: options.duration }
  let picked = false
  const chooseVideoSettings = tool({
    name: 'choose_video_settings',
    description: 'Sets the size (width*height) and the duration of the video to render.',
    parameters: VideoSettings,
    execute: (settings) => {
      chosen = settings
      picked = true
      view.tool(`Tool choose_video_settings(${JSON.stringify(settings)}) → ${JSON.stringify(chosen)}`)
      return chosen
    },
  })
  const body = {
    model: options.model,
    instructions: SETTINGS_INSTRUCTIONS,
    input: `Video prompt: ${prompt}\n\nChoose its size and duration with choose_video_settings.`,
    tool_choice: { type: 'function', name: 'choose_video_settings' },
    parallel_tool_calls: false,
  }
  const loop$ = runTools$(gateway.client, body, [chooseVideoSettings], { maxRounds: 3, stopWhen: () => picked }).pipe(
    ignoreElements(),
    catchError((err: unknown) => (isToolRoundsExceededError(err) ? EMPTY : throwError(() => err))),
  )
  return concat(loop$, defer(() => of(chosen)))
}
