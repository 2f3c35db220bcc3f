// Go's field order of audit.k8s.io/v1 Event and of the types inside it
// (the order kube-apiserver's audit log writes them in), for tests that
// check ours.
export const EVENT_FIELDS = [
  'kind',
  'apiVersion',
  'level',
  'auditID',
  'stage',
  'requestURI',
  'verb',
  'user',
  'impersonatedUser',
  'sourceIPs',
  'userAgent',
  'objectRef',
  'responseStatus',
  'requestObject',
  'responseObject',
  'requestReceivedTimestamp',
  'stageTimestamp',
  'annotations',
];
export const USER_FIELDS = ['username', 'uid', 'groups', 'extra'];
export const OBJECT_REF_FIELDS = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'];
