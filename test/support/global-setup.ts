// Runs once before the test run: unpacks the real clients so that parallel
// test files do not race to do it.
import { ensureClients } from './clients.ts';

export default function setup(): void {
  ensureClients();
}
