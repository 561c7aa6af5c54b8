//! A player's mail read as commands ([`commands`]) or orders
//! ([`player`]), and the confirmation each gets ([`confirm`]).

pub mod commands;
pub mod confirm;
pub mod player;

part! {
    /// A player's commands and orders: read, stored and answered.
    Orders
}
