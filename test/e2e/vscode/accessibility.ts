import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';

// An axe-core audit of the panel inside the real editor. Its "incomplete"
// colour-contrast results (axe could not tell, e.g. over a translucent
// background) count as failures unless this file computes the contrast itself
// from the element's colour and the first opaque background behind it.

export interface AuditResult {
  violations: { id: string; impact: string | null; nodes: string[] }[];
  /** Contrast checks axe left open that this audit settled, and how. */
  computed: { target: string; ratio: number; needed: number; passed: boolean }[];
  /** Incomplete checks that could not be settled: counted as failures. */
  unsettled: { id: string; target: string; why: string }[];
}

const AXE = () => readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

export async function auditPanel(frame: Frame): Promise<AuditResult> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE());
  return frame.evaluate(async () => {
    type AxeNode = { target: string[]; html: string };
    type AxeRule = { id: string; impact: string | null; nodes: AxeNode[] };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<Record<string, AxeRule[]>> } })
      .axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations', 'incomplete'],
    });

    const parse = (css: string): [number, number, number, number] | null => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (!m) return null;
      const parts = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const lum = ([r, g, b]: number[]) => {
      const c = [r!, g!, b!].map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
      });
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    };
    const blend = (top: number[], under: number[]) => {
      const a = top[3]!;
      return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1);
    };
    /** The element's background as painted: its own and its ancestors' colours blended down to an opaque one. */
    const backgroundOf = (el: Element): number[] | string => {
      const layers: number[][] = [];
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== 'none') return 'a background image';
        const bg = parse(style.backgroundColor);
        if (bg && bg[3] > 0) {
          layers.push(bg);
          if (bg[3] >= 1) break;
        }
      }
      let colour = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = blend(layer, colour);
      return colour;
    };

    const computed: { target: string; ratio: number; needed: number; passed: boolean }[] = [];
    const unsettled: { id: string; target: string; why: string }[] = [];
    for (const rule of results.incomplete ?? []) {
      for (const node of rule.nodes) {
        const target = node.target.join(' ');
        if (rule.id !== 'color-contrast') {
          unsettled.push({ id: rule.id, target, why: 'axe could not decide' });
          continue;
        }
        const el = document.querySelector(node.target[node.target.length - 1]!);
        if (!el) {
          unsettled.push({ id: rule.id, target, why: 'element not found' });
          continue;
        }
        const style = getComputedStyle(el);
        const bg = backgroundOf(el);
        const fg = parse(style.color);
        if (typeof bg === 'string' || !fg) {
          unsettled.push({ id: rule.id, target, why: typeof bg === 'string' ? bg : 'no colour' });
          continue;
        }
        const text = blend(fg, bg);
        const [l1, l2] = [lum(text), lum(bg)].sort((a, b) => b - a) as [number, number];
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        const size = parseFloat(style.fontSize);
        const bold = Number(style.fontWeight) >= 700;
        const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
        computed.push({ target, ratio: Math.round(ratio * 100) / 100, needed, passed: ratio >= needed });
      }
    }
    return {
      violations: (results.violations ?? []).map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      })),
      computed,
      unsettled,
    };
  });
}

/** The failures of an audit: violations, computed contrasts below AA, and incomplete checks left unsettled. */
export function auditFailures(result: AuditResult): string[] {
  return [
    ...result.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.nodes.slice(0, 5).join(', ')}`),
    ...result.computed.filter((c) => !c.passed).map((c) => `contrast ${c.ratio}:1 < ${c.needed}:1 at ${c.target}`),
    ...result.unsettled.map((u) => `${u.id} unsettled at ${u.target}: ${u.why}`),
  ];
}
