// Package prices is `gpublock prices`: the price catalog with the age and source of each
// figure, and its refresh from the AWS Price List API (--refresh, through aws/pricelist).
package prices
