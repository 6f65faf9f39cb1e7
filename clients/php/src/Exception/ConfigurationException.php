<?php

declare(strict_types=1);

namespace Paygate\Exception;

/**
 * Raised locally, before anything goes on the wire, when the client or a call is given an invalid
 * option (a publishable key, a base address that is not http or https, a bad time-out, ...).
 */
class ConfigurationException extends PaygateException
{
}
