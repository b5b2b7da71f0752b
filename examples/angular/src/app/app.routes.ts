import type { Routes } from '@angular/router'
import { Studio } from './studio'

// The same page twice: rendered on the server (/) and in the browser only (/csr).
export const routes: Routes = [
  { path: '', component: Studio },
  { path: 'csr', component: Studio },
]
