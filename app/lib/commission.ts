/** Funnel and commission arithmetic for the affiliate pages, in integer cents. */

export type CommissionInput = { amountCents: number; commissionPercent: number };

export type CommissionRow<T extends CommissionInput> = T & { commissionCents: number };

export type CommissionTable<T extends CommissionInput> = {
  rows: CommissionRow<T>[];
  /** The whole funnel's value: every item bought once. */
  totalCents: number;
  /** The most an affiliate earns on one buyer taking every item (fractions of a cent dropped). */
  maxCommissionCents: number;
};

/** Each item's commission and the funnel's totals. Half cents are kept until the total, then dropped. */
export function commissionTable<T extends CommissionInput>(
  items: readonly T[],
): CommissionTable<T> {
  const rows = items.map((item) => ({
    ...item,
    commissionCents: Math.floor((item.amountCents * item.commissionPercent) / 100),
  }));
  const totalCents = items.reduce((sum, i) => sum + i.amountCents, 0);
  const exact = items.reduce((sum, i) => sum + i.amountCents * i.commissionPercent, 0) / 100;
  return { rows, totalCents, maxCommissionCents: Math.floor(exact) };
}

/** Whole seconds from `now` until `target`, never below zero (the launch has happened at 0). */
export function secondsUntil(target: Date | string | number, now: number): number {
  const ms = new Date(target).getTime() - now;
  return Math.max(0, Math.floor(ms / 1000));
}
