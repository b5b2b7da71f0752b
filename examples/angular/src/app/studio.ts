import { AsyncPipe } from '@angular/common'
import { Component, inject } from '@angular/core'
import { ActivatedRoute } from '@angular/router'
import { injectGateway } from 'rxgate/angular'
import { defer, of, scan, startWith, Subject, switchMap } from 'rxjs'
import { IDLE, run$, stopped, type Change } from './run'

/**
 * Streams a video prompt into the page, then renders it as a video.
 * `/?topic=…` starts at once: the page that server rendering is tested with.
 */
@Component({
  selector: 'app-studio',
  imports: [AsyncPipe],
  template: `
    <h1>rxgate · Angular</h1>
    @if (view$ | async; as view) {
      <form (submit)="$event.preventDefault(); start(topic.value)">
        <input #topic name="topic" aria-label="Topic" [value]="initialTopic" />
        <button type="submit" data-testid="start">Generate</button>
        <button type="button" data-testid="stop" [disabled]="view.phase !== 'writing' && view.phase !== 'rendering'" (click)="stop()">Stop</button>
      </form>
      <p>Phase: <strong data-testid="phase">{{ view.phase }}</strong></p>
      <p class="text" data-testid="text">{{ view.text }}</p>
      <ol data-testid="statuses">
        @for (status of view.statuses; track $index) {
          <li>{{ status }}</li>
        }
      </ol>
      @if (view.video) {
        <video data-testid="video" [src]="view.video" controls muted autoplay playsinline></video>
      }
      @if (view.error) {
        <p role="alert" data-testid="error">{{ view.error }}</p>
      }
    }
  `,
  styles: `
    input { width: 24rem; }
    .text { min-height: 3em; white-space: pre-wrap; }
    video { width: 100%; background: #000; }
  `,
})
export class Studio {
  readonly #gateway = injectGateway()
  readonly #runs = new Subject<string | null>()
  readonly #topic = inject(ActivatedRoute).snapshot.queryParamMap.get('topic')
  readonly initialTopic = this.#topic ?? 'a lighthouse in a storm'

  readonly view$ = defer(() => (this.#topic ? this.#runs.pipe(startWith(this.#topic)) : this.#runs)).pipe(
    // A new run or Stop unsubscribes the run under way, which aborts its request.
    switchMap((topic) => (topic === null ? of<Change>(stopped) : run$(this.#gateway, topic))),
    scan((view, change) => change(view), IDLE),
    startWith(IDLE),
  )

  start(topic: string): void {
    this.#runs.next(topic)
  }

  stop(): void {
    this.#runs.next(null)
  }
}
