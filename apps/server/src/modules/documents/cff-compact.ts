/**
 * Smaller, faster CJK subsets. fontkit's CFF subsetter keeps every subroutine slot of the source font
 * and blanks the unused ones: Noto Sans Hans has 22,293 local subroutines in its ideograph font dict,
 * so every PDF carried (and had to encode) a 22,293-entry index for the ~150 glyphs an invoice uses.
 * This renumbers the subroutines the subset really calls into compact indexes and rewrites the
 * `callsubr` / `callgsubr` operands to match (Type 2 charstrings, Adobe TN 5177).
 *
 * It walks each glyph program the way a rasteriser would (operand stack, stem count for the
 * hintmask bytes, subroutine calls), and gives up — leaving fontkit's output untouched — on anything
 * it does not model exactly (arithmetic operators, a computed subroutine number, a subroutine reached
 * with different hint counts, a global subroutine calling local ones from two font dicts).
 */

type Bytes = Uint8Array;

/** The subset object fontkit returns for a CFF font (the fields and methods used here). */
type CffSubset = {
  glyphs: number[];
  charstrings: Bytes[];
  gsubrs: Bytes[];
  cff: {
    globalSubrIndex: unknown[];
    isCIDFont: boolean;
    topDict: { FDArray: { Private?: { Subrs?: unknown[] } }[] };
  };
  subsetFontdict(topDict: TopDict): void;
};
type TopDict = { FDArray: { Private?: { Subrs?: Bytes[] } | null }[]; FDSelect: { fds: number[] } };

class GiveUp extends Error {}

/** How often subsets were compacted or left as fontkit made them (and why, last time). */
export const cffCompactStats = { compacted: 0, gaveUp: 0, lastReason: '' };

const bias = (count: number) => (count < 1240 ? 107 : count < 33900 ? 1131 : 32768);

function encodeInt(v: number): number[] {
  if (v >= -107 && v <= 107) return [v + 139];
  if (v >= 108 && v <= 1131) {
    const w = v - 108;
    return [247 + (w >> 8), w & 0xff];
  }
  if (v >= -1131 && v <= -108) {
    const w = -v - 108;
    return [251 + (w >> 8), w & 0xff];
  }
  if (v >= -32768 && v <= 32767) return [28, (v >> 8) & 0xff, v & 0xff];
  throw new GiveUp('subroutine number out of range');
}

/** A call site: the byte range of the literal operand in front of callsubr/callgsubr. */
type Call = { start: number; end: number; global: boolean; index: number };
type Program = { bytes: Bytes; calls: Call[] };
type SubrKey = string; // `g:<index>` or `l:<fd>:<index>`

class Walker {
  readonly used = new Map<SubrKey, Program>();
  /** where each subroutine's hintmask bytes lie (must agree across calls: the bytes are rewritten once) */
  private readonly maskShape = new Map<SubrKey, string>();
  /** global subroutines → the font dicts whose local subroutines they call */
  readonly globalCallsLocal = new Map<number, Set<number>>();
  private stack = 0;
  private stems = 0;
  private done = false;

  constructor(
    private readonly globals: Bytes[],
    private readonly locals: (fd: number) => Bytes[],
  ) {}

  glyph(bytes: Bytes, fd: number): Program {
    this.stack = 0;
    this.stems = 0;
    this.done = false;
    const calls: Call[] = [];
    this.run(bytes, fd, calls, null, 0);
    return { bytes, calls };
  }

  private run(bytes: Bytes, fd: number, calls: Call[], self: SubrKey | null, depth: number): void {
    if (depth > 10) throw new GiveUp('subroutine nesting too deep');
    let i = 0;
    let last: { start: number; end: number; value: number } | null = null;
    const masks: number[] = [];
    while (i < bytes.length && !this.done) {
      const b = bytes[i]!;
      const start = i;
      if (b >= 32 || b === 28) {
        let value: number;
        if (b === 28) {
          value = ((bytes[i + 1]! << 24) >> 16) | bytes[i + 2]!;
          i += 3;
        } else if (b <= 246) {
          value = b - 139;
          i += 1;
        } else if (b <= 250) {
          value = (b - 247) * 256 + bytes[i + 1]! + 108;
          i += 2;
        } else if (b <= 254) {
          value = -(b - 251) * 256 - bytes[i + 1]! - 108;
          i += 2;
        } else {
          value = Number.NaN; // 16.16 fixed: never a subroutine number
          i += 5;
        }
        this.stack += 1;
        last = { start, end: i, value };
        continue;
      }
      i += 1;
      const operand = last && last.end === start ? last : null;
      last = null;
      switch (b) {
        case 1: // hstem
        case 3: // vstem
        case 18: // hstemhm
        case 23: // vstemhm
          this.stems += this.stack >> 1;
          this.stack = 0;
          break;
        case 19: // hintmask
        case 20: {
          // cntrmask; operands left on the stack are an implicit vstem
          this.stems += this.stack >> 1;
          this.stack = 0;
          masks.push(i, (this.stems + 7) >> 3);
          i += (this.stems + 7) >> 3;
          break;
        }
        case 10: // callsubr
        case 29: {
          // callgsubr
          if (!operand || !Number.isInteger(operand.value)) throw new GiveUp('computed subroutine number');
          this.stack -= 1;
          const global = b === 29;
          const list = global ? this.globals : this.locals(fd);
          const index = operand.value + bias(list.length);
          const body = list[index];
          if (!body) throw new GiveUp('subroutine out of range');
          // fontkit blanks the slots it found unused with a lone `return`: reaching one means the
          // two parsers disagree
          if (body.length === 1 && body[0] === 11) throw new GiveUp('blanked subroutine called');
          if (!global && self?.startsWith('g:')) {
            const g = Number(self.slice(2));
            if (!this.globalCallsLocal.has(g)) this.globalCallsLocal.set(g, new Set());
            this.globalCallsLocal.get(g)!.add(fd);
          }
          calls.push({ start: operand.start, end: operand.end, global, index });
          const key: SubrKey = global ? `g:${index}` : `l:${fd}:${index}`;
          let prog = this.used.get(key);
          const firstTime = !prog;
          if (!prog) {
            prog = { bytes: body, calls: [] };
            this.used.set(key, prog);
          }
          // every call runs the subroutine (stack and hints flow through it); its call sites are
          // recorded on the first run and must come out the same on later ones
          const sink: Call[] = firstTime ? prog.calls : [];
          this.run(body, fd, sink, key, depth + 1);
          if (
            !firstTime &&
            (sink.length !== prog.calls.length || sink.some((c, k) => c.start !== prog!.calls[k]!.start))
          )
            throw new GiveUp('subroutine parsed differently on another call');
          break;
        }
        case 11: // return
          this.finishSubr(self, masks);
          return;
        case 14: // endchar
          if (this.stack >= 4) throw new GiveUp('seac-style endchar');
          this.done = true;
          break;
        case 12: {
          const op = bytes[i]!;
          i += 1;
          // flex family clears the stack; arithmetic and storage operators are not modelled
          if (op >= 34 && op <= 37) this.stack = 0;
          else throw new GiveUp(`escape operator 12 ${op}`);
          break;
        }
        case 4:
        case 5:
        case 6:
        case 7:
        case 8:
        case 21:
        case 22:
        case 24:
        case 25:
        case 26:
        case 27:
        case 30:
        case 31:
          this.stack = 0;
          break;
        default:
          throw new GiveUp(`operator ${b}`);
      }
    }
    this.finishSubr(self, masks);
  }

  private finishSubr(self: SubrKey | null, masks: number[]) {
    if (!self) return;
    const shape = masks.join(',');
    const seen = this.maskShape.get(self);
    if (seen !== undefined && seen !== shape)
      throw new GiveUp('subroutine hintmask bytes differ between calls');
    this.maskShape.set(self, shape);
  }
}

/** The program with its subroutine operands renumbered. */
function rewrite(prog: Program, renumber: (c: Call) => number): Bytes {
  if (prog.calls.length === 0) return prog.bytes;
  const out: number[] = [];
  let pos = 0;
  for (const c of prog.calls) {
    for (let k = pos; k < c.start; k++) out.push(prog.bytes[k]!);
    out.push(...encodeInt(renumber(c)));
    pos = c.end;
  }
  for (let k = pos; k < prog.bytes.length; k++) out.push(prog.bytes[k]!);
  return Uint8Array.from(out);
}

/**
 * Runs after fontkit's own `subsetFontdict` (CID-keyed fonts): by then `charstrings` (shared with
 * the top dict), `gsubrs` and each font dict's `Private.Subrs` hold the used programs at their
 * original slots. Replaces them with compact lists; on GiveUp leaves everything as it was.
 */
function compact(subset: CffSubset, topDict: TopDict): boolean {
  const fds = topDict.FDSelect.fds;
  const localsOf = (fd: number) => (topDict.FDArray[fd]?.Private?.Subrs ?? []) as Bytes[];
  const walker = new Walker(subset.gsubrs, localsOf);
  let programs: Program[];
  try {
    programs = subset.charstrings.map((cs, gi) => walker.glyph(cs, fds[gi] ?? 0));
    for (const [, usedBy] of walker.globalCallsLocal)
      if (usedBy.size > 1) throw new GiveUp('shared global → local');
  } catch (err) {
    if (err instanceof GiveUp) {
      if (process.env.KP_CFF_DEBUG) console.error('cff-compact gave up:', err.message);
      return false;
    }
    throw err;
  }
  // new numbering, in original order
  const globalNew = new Map<number, number>();
  const localNew = new Map<number, Map<number, number>>();
  const keys = [...walker.used.keys()].sort((a, b) => {
    const ia = Number(a.slice(a.lastIndexOf(':') + 1));
    const ib = Number(b.slice(b.lastIndexOf(':') + 1));
    return ia - ib;
  });
  for (const key of keys) {
    if (key.startsWith('g:')) globalNew.set(Number(key.slice(2)), globalNew.size);
    else {
      const [, fdText, idx] = key.split(':');
      const fd = Number(fdText);
      if (!localNew.has(fd)) localNew.set(fd, new Map());
      const m = localNew.get(fd)!;
      m.set(Number(idx), m.size);
    }
  }
  const gBias = bias(globalNew.size);
  const lBias = (fd: number) => bias(Math.max(1, localNew.get(fd)?.size ?? 0));
  const renumberFor = (fd: number) => (c: Call) =>
    c.global ? globalNew.get(c.index)! - gBias : localNew.get(fd)!.get(c.index)! - lBias(fd);

  const fdOfGlobal = (g: number) => [...(walker.globalCallsLocal.get(g) ?? [])][0] ?? 0;
  const newGlobals: Bytes[] = [];
  const newLocals = new Map<number, Bytes[]>();
  for (const key of keys) {
    const prog = walker.used.get(key)!;
    if (key.startsWith('g:')) {
      const g = Number(key.slice(2));
      newGlobals[globalNew.get(g)!] = rewrite(prog, renumberFor(fdOfGlobal(g)));
    } else {
      const [, fdText, idx] = key.split(':');
      const fd = Number(fdText);
      if (!newLocals.has(fd)) newLocals.set(fd, []);
      newLocals.get(fd)![localNew.get(fd)!.get(Number(idx))!] = rewrite(prog, renumberFor(fd));
    }
  }
  programs.forEach((p, gi) => {
    subset.charstrings[gi] = rewrite(p, renumberFor(fds[gi] ?? 0));
  });
  subset.gsubrs = newGlobals.length ? newGlobals : [Uint8Array.of(11)];
  topDict.FDArray.forEach((dict, fd) => {
    if (!dict.Private?.Subrs) return;
    const list = newLocals.get(fd) ?? [];
    dict.Private = { ...dict.Private, Subrs: list.length ? list : [Uint8Array.of(11)] };
  });
  cffCompactStats.compacted += 1;
  return true;
}

/** Makes this fontkit font's subsets compact (an instance patch: other fontkit users are untouched). */
export function compactCffSubsets<F extends { createSubset(): unknown }>(font: F): F {
  const original = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = original() as CffSubset;
    if (!subset.cff?.isCIDFont || typeof subset.subsetFontdict !== 'function') return subset;
    const subsetFontdict = subset.subsetFontdict.bind(subset);
    subset.subsetFontdict = (topDict: TopDict) => {
      subsetFontdict(topDict);
      compact(subset, topDict);
    };
    return subset;
  };
  return font;
}
