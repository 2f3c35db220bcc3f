// Per-message conversion plans, computed once from the protoc-gen-es
// descriptors plus the generated conversion metadata: for each field its
// number, JSON name, shape (scalar, message, list, map), element type, whether
// upstream holds it by value, and whether it is an inlined struct.
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import type { ProtoMessageMeta, SpecialKind } from '../../../generated/proto/index.ts';
import { ProtobufError } from './errors.ts';

export interface FieldPlan {
  number: number;
  localName: string;
  json: string;
  always: boolean;
  inline: boolean;
  shape: 'scalar' | 'message' | 'list' | 'map';
  /** element scalar type (scalar, list or map of scalars) */
  scalar?: ScalarType;
  /** element message (message, list or map of messages) */
  message?: DescMessage;
  field: DescField;
}

export interface MessagePlan {
  desc: DescMessage;
  special?: SpecialKind;
  fields: FieldPlan[];
}

export type MetaLookup = (typeName: string) => ProtoMessageMeta | undefined;

export class Plans {
  private cache = new Map<string, MessagePlan>();
  constructor(private meta: MetaLookup) {}

  get(desc: DescMessage): MessagePlan {
    let p = this.cache.get(desc.typeName);
    if (!p) {
      p = this.build(desc);
      this.cache.set(desc.typeName, p);
    }
    return p;
  }

  private build(desc: DescMessage): MessagePlan {
    const meta = this.meta(desc.typeName);
    if (!meta) throw new ProtobufError(`no conversion metadata for ${desc.typeName}`);
    const always = new Set(meta.always ?? []);
    const inline = new Set(meta.inline ?? []);
    const fields: FieldPlan[] = [];
    for (const f of desc.fields) {
      const plan: FieldPlan = {
        number: f.number,
        localName: f.localName,
        json: meta.json?.[f.name] ?? f.name,
        always: always.has(f.name),
        inline: inline.has(f.name),
        shape: 'scalar',
        field: f,
      };
      switch (f.fieldKind) {
        case 'scalar':
          plan.scalar = f.scalar;
          break;
        case 'message':
          plan.shape = 'message';
          plan.message = f.message;
          break;
        case 'list':
          plan.shape = 'list';
          if (f.listKind === 'message') plan.message = f.message;
          else if (f.listKind === 'scalar') plan.scalar = f.scalar;
          else throw new ProtobufError(`${desc.typeName}.${f.name}: enum lists are not supported`);
          break;
        case 'map':
          plan.shape = 'map';
          if (f.mapKey !== ScalarType.STRING) throw new ProtobufError(`${desc.typeName}.${f.name}: only string map keys are supported`);
          if (f.mapKind === 'message') plan.message = f.message;
          else if (f.mapKind === 'scalar') plan.scalar = f.scalar;
          else throw new ProtobufError(`${desc.typeName}.${f.name}: enum maps are not supported`);
          break;
        default:
          throw new ProtobufError(`${desc.typeName}.${f.name}: enums are not supported`);
      }
      fields.push(plan);
    }
    fields.sort((a, b) => a.number - b.number);
    return { desc, special: meta.special, fields };
  }
}
