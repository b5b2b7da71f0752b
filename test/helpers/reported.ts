import { config } from 'rxjs'
import { afterEach, beforeEach } from 'vitest'

/** One turn of the event loop: what is reported is reported on the turn after. */
export const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/** What observers' errors were reported during the current test. */
export interface Reports {
  /** Errors given to RxJS's `config.onUnhandledError`, where rxgate reports a hook's or telemetry's failure. */
  readonly reported: unknown[]
  /** Promise rejections nobody handled: there must be none. */
  readonly rejections: unknown[]
}

/**
 * For every test of the file: collects what is reported to
 * `config.onUnhandledError` and any unhandled rejection, and waits a turn
 * after the test so that reports of its last moment land.
 */
export function captureReports(): Reports {
  const reports = { reported: [] as unknown[], rejections: [] as unknown[] }
  const onRejection = (reason: unknown): void => void reports.rejections.push(reason)
  beforeEach(() => {
    reports.reported.length = 0
    reports.rejections.length = 0
    config.onUnhandledError = (error) => reports.reported.push(error)
    process.on('unhandledRejection', onRejection)
  })
  afterEach(async () => {
    await turn()
    config.onUnhandledError = null
    process.off('unhandledRejection', onRejection)
  })
  return reports
}
