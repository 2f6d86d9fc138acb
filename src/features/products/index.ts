/**
 * The products feature's public face (docs/adr/0112): deposit products, their terms and their forward-only rates.
 * Its service, store, REST operations, presenters and GraphQL resolvers.
 */
export {
  BALANCE_BASES,
  type Compounding,
  COMPOUNDINGS,
  DAY_COUNTS,
  type DayCount,
  type Posting,
  POSTINGS,
  type Product,
  type ProductRate,
  RATE_HISTORY_LIMIT,
  type RateTier,
} from './product.js';
export type { ProductStore } from './ports.js';
export { ProductService } from './product.service.js';
export { PrismaProductStore } from './product.store.js';
export { PRODUCT_LIMITS } from './product.schemas.js';
export { listProductsQuery, PRODUCTS_ROUTES } from './product.rest.js';
export { presentProduct, presentProductPage, productDataSchema } from './product.presenter.js';
export { productResolvers } from './product.resolvers.js';
