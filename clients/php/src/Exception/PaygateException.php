<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Root of every exception this client throws: catch it to catch them all.
 */
class PaygateException extends \RuntimeException
{
}
