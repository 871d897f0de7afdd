#!/bin/bash -e
# pi-gen, inside the image: install boardctl from its package (the package needs
# no network), give the board its configuration, turn on the interfaces it uses.
# The boot files are edited directly, as raspi-config's do_spi and do_serial_*
# would, without their run-time steps, which have no hardware in a chroot.
apt-get install -y /tmp/boardctl/boardctl_*.deb
if [ -e /tmp/boardctl/boardctl.toml ]; then
    install -m 644 /tmp/boardctl/boardctl.toml /etc/boardctl/boardctl.toml
fi

BOARD_SPI=0 BOARD_SPI_LEDS=0 BOARD_SPI1_CS=0 BOARD_UART=0 BOARD_PWM_LEDS=0 BOARD_SPI_BUFSIZ=0
if [ -e /tmp/boardctl/board.env ]; then
    . /tmp/boardctl/board.env
fi
config=/boot/firmware/config.txt
cmdline=/boot/firmware/cmdline.txt

# KEY=VALUE in config.txt: the line (commented out or not) replaced, else added
set_config() {
    local key=${1%=*}
    if grep -qE "^#?${key}=" "$config"; then
        sed -i -E "0,/^#?${key}=.*/s//$1/" "$config"
    else
        echo "$1" >>"$config"
    fi
}

if [ "$BOARD_SPI" = 1 ] || [ "$BOARD_SPI_LEDS" = 1 ]; then
    set_config dtparam=spi=on # /dev/spidev0.0 and 0.1
fi
if [ "$BOARD_SPI_LEDS" = 1 ]; then
    # LEDs on SPI: the SPI clock of a Pi 3 or 4 follows the core clock; pin it
    printf '\n[pi3]\ncore_freq=250\n[pi4]\ncore_freq_min=500\n[all]\n' >>"$config"
fi
if [ "$BOARD_SPI1_CS" -gt 0 ]; then
    # shift registers on the auxiliary bus 1 (`bus = 1`): /dev/spidev1.0 and up
    echo "dtoverlay=spi1-${BOARD_SPI1_CS}cs" >>"$config"
fi
if [ "$BOARD_UART" = 1 ]; then
    # a microcontroller on the GPIO UART instead of USB: the port on, no console on it
    set_config enable_uart=1
    sed -i -E 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//' "$cmdline"
fi
if [ "$BOARD_PWM_LEDS" = 1 ]; then
    # rpi_ws281x on the PWM pin shares the PWM hardware with the analogue audio
    set_config dtparam=audio=off
fi
if [ "$BOARD_SPI_BUFSIZ" -gt 0 ]; then
    # chains of more than about 445 LEDs on SPI: a whole frame in one transfer
    sed -i "1 s/\$/ spidev.bufsiz=${BOARD_SPI_BUFSIZ}/" "$cmdline"
fi
rm -rf /tmp/boardctl
