import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects, WriteEffects } from '../../domain/write-effects.js';
import type { InterestTerms, Product, ProductRate } from './product.js';

/** A new product's row and its first rate (effective from the business date of its creation), validated and exact. */
export interface NewProductRecord {
  id: string;
  environment: string;
  code: string;
  name: string;
  accountType: string;
  currency: string;
  interest: InterestTerms | null;
  /** With interest: its first rate, from the creation's business date; null without. */
  rate: (ProductRate & { id: string }) | null;
  monthlyMaintenanceFee: { amount: string; waivedAtMinimumDailyBalance: string | null } | null;
  minimumOpeningDeposit: string | null;
  minimumBalance: string | null;
  limits: { dailyWithdrawalTotal: string | null; withdrawalsPerMonth: number | null } | null;
}

export type ProductInsertion = { outcome: 'created' } | { outcome: 'key-taken' } | { outcome: 'code-taken' };

export type RateInsertion = { outcome: 'created' } | { outcome: 'date-taken' };

export interface ProductStore {
  /**
   * In one statement: the product, its first rate, its audit row, its `product.created` event and, with a key, the
   * key's record. `code-taken` when the environment has a product with this code (nothing written).
   */
  insert(product: NewProductRecord, effects: CreationEffects): Promise<ProductInsertion>;
  /**
   * In one statement: the rate of the product (which never changes nor goes away), its audit row and its
   * `product.rate_changed` event. `date-taken` when the product has a rate from this date (nothing written).
   */
  insertRate(
    environment: string,
    productId: string,
    rate: ProductRate & { id: string; code: string },
    effects: WriteEffects,
  ): Promise<RateInsertion>;
  /** The product with its rate in force on `businessDate` and its newest rates; null when none has this code. */
  findByCode(environment: string, code: string, businessDate: string): Promise<Product | null>;
  /** The products of these codes that exist, each as findByCode reads it, in no particular order. */
  findByCodes(environment: string, codes: readonly string[], businessDate: string): Promise<Product[]>;
  /** Products by code, after the code `after`, at most `page.first`, each as findByCode reads it. */
  list(environment: string, page: PageRequest, businessDate: string): Promise<Product[]>;
}
