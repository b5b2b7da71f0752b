// An Angular app without rxgate: the base that rxgate's cost on Angular is
// measured over (angular-rxgate-app.mjs is the same app streaming through rxgate).
// Compiled in the browser (JIT): the component is declared with `Component(…)`
// called on the class (what the @Component decorator does) and
// @angular/compiler compiles its template at bootstrap. Both apps carry the
// compiler, so the difference between them is rxgate's alone; compiled ahead
// of time (its ɵcmp written out as ngc would) the difference is within 0.5 KB
// of this one.
import '@angular/compiler'
import { AsyncPipe } from '@angular/common'
import { Component, provideZonelessChangeDetection } from '@angular/core'
import { bootstrapApplication } from '@angular/platform-browser'
import { of, scan } from 'rxjs'

class Greeting {
  // The same text shape as the rxgate app: pieces gathered into the text so far.
  text$ = of('Write', ' a video prompt').pipe(scan((text, piece) => text + piece, ''))
}
Component({ selector: 'app-greeting', imports: [AsyncPipe], template: '<p>{{ text$ | async }}</p>' })(Greeting)

bootstrapApplication(Greeting, { providers: [provideZonelessChangeDetection()] })
