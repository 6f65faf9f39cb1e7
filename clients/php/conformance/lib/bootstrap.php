<?php

declare(strict_types=1);

// PHP's notices and warnings would go to stdout, which belongs to the protocol: send them to stderr.
ini_set('display_errors', 'stderr');

// Loads the client through Composer's autoloader (conformance/build writes it); without one, a
// PSR-4 loader for src/ does the same, so the driver also runs from a fresh checkout.

$composerAutoload = __DIR__ . '/../../vendor/autoload.php';
if (is_file($composerAutoload)) {
    require $composerAutoload;
} else {
    spl_autoload_register(static function (string $class): void {
        if (str_starts_with($class, 'Paygate\\')) {
            $file = __DIR__ . '/../../src/' . str_replace('\\', '/', substr($class, 8)) . '.php';
            if (is_file($file)) {
                require $file;
            }
        }
    });
}
require_once __DIR__ . '/RecordingHttpClient.php';
require_once __DIR__ . '/Driver.php';
