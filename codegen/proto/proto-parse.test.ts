import { describe, it, expect } from 'vitest';
import { parseProto, ProtoParseError } from './proto-parse.ts';

describe('parseProto', () => {
  it('reads package, imports, messages, fields and maps; skips comments and options', () => {
    const p = parseProto(`
// a comment with /* inside */ and a '*/scale' pattern
/* block
   comment */
syntax = "proto2";
package k8s.io.api.x.v1;
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";
option go_package = "k8s.io/api/x/v1";
message A {
  // field comment
  optional string name = 1;
  repeated .k8s.io.api.x.v1.B items = 2;
  map<string, string> labels = 3;
  optional int64 n = 4 [default = 0];
}
message Empty {}
`);
    expect(p.package).toBe('k8s.io.api.x.v1');
    expect(p.imports).toEqual(['k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto']);
    expect(p.messages).toEqual([
      {
        name: 'A',
        fields: [
          { label: 'optional', type: 'string', name: 'name', number: 1 },
          { label: 'repeated', type: 'k8s.io.api.x.v1.B', name: 'items', number: 2 },
          { label: 'map', mapKey: 'string', type: 'string', name: 'labels', number: 3 },
          { label: 'optional', type: 'int64', name: 'n', number: 4 },
        ],
      },
      { name: 'Empty', fields: [] },
    ]);
  });

  it.each([
    ['an enum', 'enum E { A = 0; }', /unsupported top-level statement/],
    ['a oneof', 'message M {\n oneof o {\n string a = 1;\n }\n}', /unsupported statement in message/],
    ['an unclosed message', 'message M {\n optional string a = 1;', /not closed/],
  ])('rejects %s', (_n, text, msg) => {
    expect(() => parseProto(text, 'x.proto')).toThrow(ProtoParseError);
    expect(() => parseProto(text, 'x.proto')).toThrow(msg);
  });
});
