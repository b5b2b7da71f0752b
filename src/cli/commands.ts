import { join } from 'node:path'
import { concat, concatMap, defer, from, ignoreElements, map, of, tap, throwError, type Observable } from 'rxjs'
import { audioPreflight$ } from './audio.js'
import { download$ } from './download.js'
import { responseText } from '../operators/outputText.js'
import { endpoints, taskEndpoint, type TaskEndpoint } from '../endpoints.js'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { checkFileCount, DEFAULT_MAX_FILES } from '../download/maxFiles.js'
import type { Gateway } from '../gateway.js'
import type { TaskEvent } from '../operators/pollTask.js'
import { TextToVideoRequestSchema, type TextToVideoRequest } from '../validation/textToVideoRequest.js'
import { serializeRequest } from '../validation/check.js'
import { bot$, type BotResult } from './bot.js'
import type { Progress } from './progress.js'
import { isHttpUrl } from './env.js'
import { toSize } from './size.js'
import { wholeNumber } from './wholeNumber.js'
import { printTask, showTask, urlLines, type CliState, type CompletedView } from './taskView.js'

/** What a command needs from the terminal. */
export interface Io {
  /** stdout: the command's result (with --json, one JSON document and nothing else). */
  readonly out: (text: string) => void
  /** Text streamed for a person to watch: stdout, or stderr with --json. */
  readonly text: (text: string) => void
  readonly progress: Progress
  readonly json: boolean
  readonly state: CliState
}

/** A command: what to run, and how to print each value it emits. */
export interface Command<T> {
  readonly run$: Observable<T>
  readonly print: (value: T) => void
}

export function respond(gateway: Gateway, text: string, flags: { model: string; stream: boolean }, io: Io): Command<string> {
  const body = { model: flags.model, input: text }
  const run$ = flags.stream
    ? gateway.responses$({ ...body, stream: true }).pipe(
        map((event) => {
          if (io.json) return `${JSON.stringify(event)}\n`
          if (event.type === 'response.output_text.delta') return event.delta
          return event.type === 'response.completed' || event.type === 'response.incomplete' ? '\n' : ''
        }),
      )
    : gateway.responses$(body).pipe(map((r) => (io.json ? `${JSON.stringify(r)}\n` : `${responseText(r)}\n`)))
  return { run$, print: (chunk) => chunk && io.out(chunk) }
}

/** The flags of `rxgate video`. */
interface VideoFlags { size?: string | undefined; duration?: string | undefined; audio?: string | undefined; out?: string | undefined; overwrite?: boolean | undefined }

function videoBody(prompt: string, flags: VideoFlags): Record<string, unknown> {
  const body: Record<string, unknown> = { prompt }
  if (flags.size) body.size = toSize(flags.size)
  // A duration not written in digits goes on as text, for the request check to refuse by its own words.
  if (flags.duration) body.duration = Number.isNaN(wholeNumber(flags.duration)) ? flags.duration : wholeNumber(flags.duration)
  if (flags.audio) body.audio_url = flags.audio
  return body
}

/**
 * Refuses a video request that would be refused anyway, before anything
 * starts (an embedded simulator included): the request check of
 * `textToVideo$`, and an `--audio` that is not an http(s) URL.
 */
export function checkVideo(prompt: string, flags: VideoFlags): void {
  serializeRequest(TextToVideoRequestSchema, videoBody(prompt, flags), 'text-to-video request')
  if (flags.audio !== undefined && !isHttpUrl(flags.audio)) {
    throw new InvalidRequestError([{ path: 'audio_url', message: `must be an http:// or https:// URL (got ${JSON.stringify(flags.audio)})` }], 'text-to-video request')
  }
}

/** Refuses an endpoint name `rxgate task` cannot follow, before anything starts. */
export function checkTask(endpointName: string): void {
  resolveEndpoint(endpointName)
}

export function video(gateway: Gateway, prompt: string, flags: VideoFlags, io: Io): Command<TaskEvent | CompletedView> {
  const body = videoBody(prompt, flags)
  // The audio preflight's finding is shown before anything is created; the task is then created without a second probe.
  const preflight$ = flags.audio ? audioPreflight$(flags.audio, [new URL(gateway.client.baseUrl).origin, ...(gateway.client.allowHosts ?? [])]).pipe(tap((line) => io.progress.line(line)), ignoreElements()) : of()
  const events$ = concat(preflight$, gateway.textToVideo$(body as TextToVideoRequest, { checkAudio: false })).pipe(tap((e) => showTask(e, io)))
  const out = flags.out
  if (!out) return { run$: events$, print: (e) => printTask(e, io) }
  // With --out, the video is saved before the command ends (its URL expires).
  return {
    run$: events$.pipe(concatMap((event) => (event.type !== 'completed' ? of(event) : saveResult$(event, { out, overwrite: Boolean(flags.overwrite) }, 'mp4', io, gateway.client.baseUrl)))),
    print: (e) => printTask(e, io),
  }
}

/** Where `--out` saves results, and whether a file already there is replaced (`--overwrite`). */
interface SaveFlags { out: string; overwrite: boolean }

export function task(gateway: Gateway, endpointName: string, id: string, flags: { out?: string | undefined; overwrite?: boolean | undefined }, io: Io): Command<TaskEvent | CompletedView> {
  const endpoint = resolveEndpoint(endpointName)
  const events$ = gateway.task$(endpoint, id).pipe(tap((e) => showTask(e, io, endpointName)))
  const out = flags.out
  if (!out) return { run$: events$, print: (e) => printTask(e, io) }
  // With --out, the result is saved before the command ends (its URL expires): what a follow after Ctrl-C needs.
  const ext = endpoint.kind === 'image' ? 'png' : 'mp4'
  return {
    run$: events$.pipe(concatMap((event) => (event.type !== 'completed' ? of(event) : saveResult$(event, { out, overwrite: Boolean(flags.overwrite) }, ext, io, gateway.client.baseUrl)))),
    print: (e) => printTask(e, io),
  }
}

export function bot(gateway: Gateway, flags: { topic: string; model: string; out: string; overwrite: boolean }, io: Io): Command<BotResult> {
  let writing = false
  const run$ = bot$(
    gateway,
    { topic: flags.topic, model: flags.model, size: '1280*720', duration: 5, outDir: flags.out, overwrite: flags.overwrite },
    {
      delta: (text) => {
        if (!writing) io.progress.line('Writing a video prompt:')
        writing = true
        io.text(text)
      },
      tool: (line) => {
        if (writing) io.text('\n')
        writing = false
        io.progress.line(line)
      },
      task: (event) => {
        if (event.type === 'created' && writing) io.text('\n')
        showTask(event, io)
      },
    },
  )
  return {
    run$,
    print: (r) => {
      io.progress.stop()
      io.out(io.json ? `${JSON.stringify(r)}\n` : `${urlLines(r.urls)}Saved ${r.bytes} bytes to ${r.file}\n`)
    },
  }
}

/**
 * Saves every result (a video's one, an image task's several) under `out`,
 * one after the other; the gateway's own origin may be at a private address
 * (a local simulator serves its results itself). A task listing more than
 * `DEFAULT_MAX_FILES` (16) URLs fails before any download, as `saveResults` does.
 */
function saveResult$(done: Extract<TaskEvent, { type: 'completed' }>, { out, overwrite }: SaveFlags, ext: string, io: Io, baseUrl: string): Observable<CompletedView> {
  const name = safeName(done.taskId)
  const saved: { file: string; bytes: number }[] = []
  const one$ = (url: string, i: number) => {
    const file = join(out, `${name}${done.urls.length > 1 ? `-${i + 1}` : ''}.${ext}`)
    const onProgress = (p: { bytes: number; total: number | undefined }) => io.progress.bar(`Downloading ${file}`, p.bytes, p.total)
    return download$(url, file, { ...(done.expiresAt ? { expiresAt: done.expiresAt } : {}), onProgress, allowHosts: [baseUrl], overwrite }).pipe(
      tap((bytes) => (saved.push({ file, bytes }), io.progress.line(`Saved ${bytes} bytes to ${file}`))),
    )
  }
  if (done.urls.length === 0) {
    return throwError(() => new Error(`Task ${done.taskId} completed without a result URL, so nothing was saved: check that the endpoint is the right kind (video or image)`))
  }
  return defer(() => {
    checkFileCount(done.taskId, done.urls, DEFAULT_MAX_FILES, 'its results stay at the gateway until they expire')
    return from(done.urls)
  }).pipe(
    concatMap(one$),
    ignoreElements(),
    (saving$) => concat(saving$, defer(() => of({ ...done, file: saved[0]!.file, bytes: saved[0]!.bytes, ...(saved.length > 1 ? { files: saved.map((s) => s.file) } : {}) }))),
  )
}

/** A catalog key (`t2vSpark`) or `vendor/model[/action]` for any other model. */
export function resolveEndpoint(name: string): TaskEndpoint {
  if (Object.hasOwn(endpoints, name)) return endpoints[name as keyof typeof endpoints]
  const [vendor, model, action] = name.split('/')
  if (!vendor || !model) {
    throw new InvalidRequestError([
      { path: 'endpoint', message: `must be one of ${Object.keys(endpoints).join(', ')} or vendor/model (got ${JSON.stringify(name)})` },
    ])
  }
  return taskEndpoint({ vendor, model, kind: /image|i2i/.test(model) ? 'image' : 'video', ...(action ? { action } : {}) })
}

/** A task id as a file name: ids are the gateway's words, so anything but letters, digits, `-` and `_` is replaced. */
function safeName(id: string): string {
  return id.replace(/[^\w-]/g, '_').slice(0, 128) || 'result'
}
