// The Angular app of angular-app.mjs streaming a response into its template
// through rxgate: `responses$(injectClient(), …)`, the client provided by
// provideClient as an app of standalone functions does (the key stays on the app's server at /api/rxgate).
// Compiled in the browser (JIT), as angular-app.mjs is: `Component(…)` called
// on the class, @angular/compiler compiling the template at bootstrap. The two
// apps differ only in the providers and the component's source of text, so the
// difference in size is rxgate's cost on Angular.
import '@angular/compiler'
import { AsyncPipe } from '@angular/common'
import { Component, provideZonelessChangeDetection } from '@angular/core'
import { bootstrapApplication } from '@angular/platform-browser'
import { scan } from 'rxjs'
import { injectClient, provideClient, responses$, textDeltas } from '../../dist/browser/angular/index.js'

class Greeting {
  // Cold: sent when the async pipe subscribes, aborted when the component is destroyed.
  text$ = responses$(injectClient(), { model: 'gpt-4.1-mini', input: 'Write a video prompt', stream: true }).pipe(
    textDeltas(),
    scan((text, piece) => text + piece, ''),
  )
}
Component({ selector: 'app-greeting', imports: [AsyncPipe], template: '<p>{{ text$ | async }}</p>' })(Greeting)

bootstrapApplication(Greeting, { providers: [provideZonelessChangeDetection(), provideClient({ baseUrl: '/api/rxgate' })] })
