/**
 * The resources in §1 order, so reports and the schema model list them the way
 * the spec does. A plain list (no schema loading), for pure modules such as the
 * report views.
 */
export const RESOURCE_ORDER: readonly string[] = [
  'product', 'blog-post', 'coupon', 'page', 'collection', 'category',
  'order', 'customer', 'shipping-method', 'tax', 'payment-method', 'user', 'file', 'country', 'store',
];
