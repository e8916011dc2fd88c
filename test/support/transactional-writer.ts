// Set before each test file of the "transactional writer" jest project: its servers write checkouts
// with the transactional order writer instead of the default combined one.
process.env.CHECKOUT_WRITER = 'transactional';
