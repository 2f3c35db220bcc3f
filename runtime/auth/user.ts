// Who is making a request, as authentication establishes it (user name,
// uid, groups, extra), and the well-known identities.

import { GROUP_UNAUTHENTICATED, USER_ANONYMOUS } from '../api/k8s-names.ts';

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS: UserInfo = { name: USER_ANONYMOUS, groups: [GROUP_UNAUTHENTICATED] };
