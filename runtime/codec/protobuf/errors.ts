// Errors of the protobuf codec. ProtobufError: the bytes are not a valid
// Kubernetes protobuf body (bad prefix, bad envelope, bad message bytes, a
// type we have no message for) -- the HTTP layer answers 400.
// ProtobufUnsupportedError: an object whose kind has no protobuf form was
// asked to be encoded (custom resources, Table) -- the HTTP layer answers 406.

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

export class ProtobufUnsupportedError extends ProtobufError {
  override name = 'ProtobufUnsupportedError';
}
