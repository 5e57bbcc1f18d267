/** The product's limits and messages (validation, errors, constants), shared by server and client. */

export const RELEASE_YEAR_MIN = 1900;
export const RELEASE_YEAR_MAX = 2030;
export const QUANTITY_MIN = 0;
/** Stock stays below this: a change that would reach it is refused. */
export const QUANTITY_MAX_EXCLUSIVE = 1_000_000_000;
export const BARCODE_MAX = 64;
export const NAME_MAX = 200;
export const PASSWORD_MIN = 6;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,50}$/;

/**
 * "Few left": 5 or fewer in stock, what the spec's "Low stock" badge and the quantity filter's
 * 1-5 bucket mean. Not the reorder point, a per-product rule (report-rules.ts atOrUnderReorderPoint).
 */
export const FEW_LEFT_MAX = 5;
export const fewLeft = (quantity: number): boolean => quantity <= FEW_LEFT_MAX;
export const RECENT_PRODUCTS_MAX = 5;
export const LIVE_TOASTS_MAX = 5;
export const LIVE_TOAST_MS = 5000;

export const HTTP_TIMEOUT_MS = 10_000;
/** GET /api/products?limit=N: the most products one first page answers. */
export const PRODUCTS_LIMIT_MAX = 1000;
/** The inventory's first page while the whole catalogue downloads: more rows than the tallest screen shows. */
export const FIRST_PAGE_PRODUCTS = 100;
export const TOAST_DURATION_MS = { error: 5000, success: 3000, warning: 4000, info: 3000 } as const;

export const CSV_BARCODE_MIN = 3;
export const CSV_PREVIEW_ROWS = 5;
export const CSV_ERRORS_SHOWN = 10;
export const CSV_COLUMNS = ["barcode", "product_name", "vendor", "release_year", "quantity_on_hand", "is_active"] as const;
/** Optional card details (price and cost as amounts like 12.50 in CSV; integer cents in JSON). */
export const CSV_DETAIL_COLUMNS = [
  "price",
  "cost",
  "condition",
  "grader",
  "grade",
  "set_name",
  "card_number",
  "location",
  "reorder_point",
] as const;
/**
 * Export: the spec's columns first, then created_at and updated_at, then the card details, then
 * `photos` (the photo URLs, cover first, separated by spaces). An import ignores `photos`: photos
 * are not imported from a file.
 */
export const CSV_EXPORT_COLUMNS = [...CSV_COLUMNS, "created_at", "updated_at", ...CSV_DETAIL_COLUMNS, "photos"] as const;
/** The import template: the spec's columns, then the card details. */
export const CSV_TEMPLATE_COLUMNS = [...CSV_COLUMNS, ...CSV_DETAIL_COLUMNS] as const;
export const CSV_TRUE_VALUES = ["true", "1", "yes", "on"] as const;
export const CSV_IS_ACTIVE_VALUES = ["true", "false", "1", "0", "yes", "no"] as const;

/**
 * Quantity filter buckets: out of stock 0, low 1-5 (few left: the spec's label is "Low stock";
 * `low` is also the value in the inventory's address), normal 6-50, high above 50.
 */
export const QUANTITY_BUCKETS = {
  out: { min: 0, max: 0 },
  low: { min: 1, max: FEW_LEFT_MAX },
  normal: { min: 6, max: 50 },
  high: { min: 51, max: Number.POSITIVE_INFINITY },
} as const;

export const MESSAGES = {
  loginBothRequired: "Please enter both username and password",
  loginFailed: "Login failed",
  invalidCredentials: "Invalid username or password",
  accountDisabled: "This account is disabled",
  productRequired: "Barcode, product name, and vendor are required",
  userRequired: "Username and password are required",
  passwordsMismatch: "Passwords do not match",
  passwordTooShort: "Password must be at least 6 characters long",
  newPasswordRequired: "New password is required",
  ownAccount: "You cannot disable your own account",
  ownAccountClient: "You cannot disable your own account!",
  productNotFound: "Product not found",
  insufficientStock: "Insufficient stock",
  productDisabled: "Product is disabled",
  versionConflict: "This product was changed by someone else",
  idempotencyKeyReused: "This Idempotency-Key was already used for a different request",
  barcodeExists: "A product with this barcode already exists",
  usernameTaken: "Username already exists",
  releaseYearRange: `Release year must be between ${RELEASE_YEAR_MIN} and ${RELEASE_YEAR_MAX}`,
  quantityInvalid: "Quantity must be a whole number of 0 or more",
  quantityChangeInvalid: "Quantity change must be a non-zero whole number",
  csvNotCsv: "Please select a CSV file",
} as const;

/** CSV row messages; `row` is the 1-based line number incl. header (data starts at 2). */
export const csvMessages = {
  missing: (row: number, field: string) => `Row ${row}: Missing required field '${field}'`,
  barcodeShort: (row: number) => `Row ${row}: Barcode too short`,
  quantity: (row: number) => `Row ${row}: Invalid quantity (must be 0 or positive number)`,
  releaseYear: (row: number) => `Row ${row}: Invalid release year (must be between 1900-2030)`,
  isActive: (row: number) => `Row ${row}: Invalid is_active value (use: true/false, 1/0, yes/no)`,
  moreErrors: (n: number) => `... and ${n} more errors`,
  price: (row: number) => `Row ${row}: Invalid price (must be 0 or a positive amount)`,
  cost: (row: number) => `Row ${row}: Invalid cost (must be 0 or a positive amount)`,
  condition: (row: number) => `Row ${row}: Invalid condition (use: ${CONDITIONS.join(", ")})`,
  grader: (row: number) => `Row ${row}: Invalid grader (use: ${GRADERS.join(", ")})`,
  tooLong: (row: number, field: string, max: number) => `Row ${row}: ${field} is too long (at most ${max} characters)`,
  updatedAt: (row: number) => `Row ${row}: Invalid updated_at (leave the export's value, or empty the cell)`,
  /** A field the file changes that someone else changed since the export: the product's value is kept. */
  changedSinceExport: (row: number, field: string, file: string, now: string) =>
    `Row ${row}: ${field} changed since the export (file ${file}, now ${now}): left as it is`,
};

// Card details (all optional): money, condition or grade, set and number, location.
/** Money is stored and sent as whole cents; the largest amount is 10,000,000.00. */
export const MONEY_MAX_CENTS = 1_000_000_000;
/** Raw-card conditions, and Sealed for boxes and packs. */
export const CONDITIONS = ["Near Mint", "Lightly Played", "Moderately Played", "Heavily Played", "Damaged", "Sealed"] as const;
export type Condition = (typeof CONDITIONS)[number];
/** Grading companies of a slab. */
export const GRADERS = ["PSA", "BGS", "CGC", "SGC", "Other"] as const;
export type Grader = (typeof GRADERS)[number];
export const GRADE_MAX = 20;
export const SET_NAME_MAX = 200;
export const CARD_NUMBER_MAX = 50;
export const LOCATION_MAX = 100;
/** Shop codes for products without a scannable barcode: SC- and six digits or more (Code 128 on labels). */
export const SHOP_CODE_PREFIX = "SC-";
/** The shop's currency (ISO 4217), from the CURRENCY setting. */
export const CURRENCY_DEFAULT = "USD";

/** The reorder point: stock at or under it puts the product on the "To reorder" list (reports). */
export const REORDER_POINT_MAX = QUANTITY_MAX_EXCLUSIVE - 1;
export const REORDER_POINT_MESSAGE = "Reorder point must be a whole number, 0 or more";

export const DETAIL_MESSAGES = {
  price: "Price must be 0 or a positive amount",
  cost: "Cost must be 0 or a positive amount",
  condition: `Condition must be one of: ${CONDITIONS.join(", ")}`,
  grader: `Grader must be one of: ${GRADERS.join(", ")}`,
  grade: `Grade must be at most ${GRADE_MAX} characters`,
  setName: `Set must be at most ${SET_NAME_MAX} characters`,
  cardNumber: `Card number must be at most ${CARD_NUMBER_MAX} characters`,
  location: `Location must be at most ${LOCATION_MAX} characters`,
  reorderPoint: REORDER_POINT_MESSAGE,
} as const;

// Products API: header names, reasons and messages (no zod: the client's first screen uses them).
/** The fields an edit may change (PUT /api/products/{id}). */
export const SPEC_FIELDS = ["barcode", "product_name", "vendor", "release_year", "quantity_on_hand"] as const;
/** The optional card details: null when not set; an edit sends null to clear one. */
/** The optional details (card details and the reorder point): null when not set; an edit sends null to clear one. */
export const DETAIL_FIELDS = [
  "price",
  "cost",
  "condition",
  "grader",
  "grade",
  "set_name",
  "card_number",
  "location",
  "reorder_point",
] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
export const EDITABLE_FIELDS = [...SPEC_FIELDS, ...DETAIL_FIELDS] as const;
/** A product's card details when none is set (fixtures, and products from before they existed). */
export const NO_DETAILS = {
  price: null,
  cost: null,
  condition: null,
  grader: null,
  grade: null,
  set_name: null,
  card_number: null,
  location: null,
  reorder_point: null,
} as const satisfies Record<DetailField, null>;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export const QUANTITY_REASON_DEFAULT = "Manual update";
export const QUANTITY_REASONS = {
  inventory: "Manual adjustment",
  streamer: "Streamer adjustment",
  undo: "Undo",
} as const;

/** The 409 of a count whose starting stock moved meanwhile (`expected_quantity`). */
export const STOCK_MOVED = "The stock changed since the count was taken";

/** `Idempotency-Key` header of a quantity change: 1-100 printable ASCII characters. */
export const IDEMPOTENCY_HEADER = "idempotency-key";

/** The router refuses a path parameter longer than this (414), counted as sent (URL-encoded). */
export const BARCODE_PATH_MAX = 100;

/** Header of GET /api/products: the catalogue revision the list is complete up to. */
export const CATALOGUE_REVISION_HEADER = "x-catalogue-revision";
