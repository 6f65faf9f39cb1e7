<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * HTTP 422 currency_not_supported, amount_below_minimum, amount_exceeds_refundable or
 * amount_exceeds_capturable.
 */
class AmountException extends ApiException
{
}
