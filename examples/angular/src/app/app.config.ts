import { provideHttpClient, withFetch } from '@angular/common/http'
import { provideZonelessChangeDetection, type ApplicationConfig } from '@angular/core'
import { provideClientHydration, withEventReplay } from '@angular/platform-browser'
import { provideRouter, withComponentInputBinding } from '@angular/router'
import { provideGateway, withHttpClient } from 'rxgate/angular'
import { routes } from './app.routes'

export const appConfig: ApplicationConfig = {
  providers: [
    provideZonelessChangeDetection(),
    provideRouter(routes, withComponentInputBinding()),
    provideClientHydration(withEventReplay()),
    // withFetch(): HttpClient reads replies as streams, so events reach the page as they arrive.
    provideHttpClient(withFetch()),
    // The app's own server (src/server.ts) answers /api/rxgate and holds the key: none is in this bundle.
    provideGateway(
      {
        baseUrl: '/api/rxgate',
        // The embedded simulator renders a video in 1.5 s. Against a real gateway
        // (renders take minutes) leave this out: the default polls every 10 to 20 s.
        taskPoll: { initialDelayMs: 250, factor: 1.5, maxDelayMs: 2_000 },
      },
      // Calls go through HttpClient: the app's interceptors apply to them.
      withHttpClient(),
    ),
  ],
}
